; x * y: dx = d * y and dy = d * x. Both factors are taped by the forward
; sweep (the reverse sweep has no other access to them) and reloaded from the
; record the reverse sweep pops.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %r = fmul double %x, %y
  ret double %r
}

declare { double, double } @__capsule_autodiff(ptr, ...)

define { double, double } @grad(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__capsule_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; The record offsets are captured from the forward sweep's stores, which ties
; each reload in the reverse sweep to the value it reloads.
; CHECK-LABEL: define internal double @f.capsule.fwd.oor(double %0, double %1)
; CHECK:         %r = fmul double %0, %1
; CHECK:         call ptr @__capsule_tape_push_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %0, ptr [[XA:%[0-9]+]]
; CHECK-DAG:     [[XA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF:[0-9]+]]
; CHECK-DAG:     store double %1, ptr [[YA:%[0-9]+]]
; CHECK-DAG:     [[YA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[YOFF:[0-9]+]]
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double } @f.capsule.rev.oor(double %0)
; CHECK:         call ptr @__capsule_tape_pop_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[XA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF]]
; CHECK-DAG:     [[X:%[0-9]+]] = load double, ptr [[XA]]
; CHECK-DAG:     [[YA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[YOFF]]
; CHECK-DAG:     [[Y:%[0-9]+]] = load double, ptr [[YA]]
; CHECK:         [[D:%.*]] = fadd double -0.000000e+00, %0
; CHECK-NEXT:    [[DXM:%.*]] = fmul double [[D]], [[Y]]
; CHECK-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[DXM]]
; CHECK-NEXT:    [[DYM:%.*]] = fmul double [[D]], [[X]]
; CHECK-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[DYM]]
; CHECK:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:         [[R0:%.*]] = insertvalue { double, double } poison, double [[DXN]], 0
; CHECK-NEXT:    [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double } [[R0]], double [[DYN]], 1
; CHECK:         ret { double, double } [[R1]]
