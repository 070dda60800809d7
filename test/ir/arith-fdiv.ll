; x / y: q = d / y, dx = q, dy = -(q * (x / y)). The reverse sweep reuses
; the taped quotient r instead of dividing again, so the record holds y and
; r; x itself is not needed.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %r = fdiv double %x, %y
  ret double %r
}

declare { double, double } @__capsule_autodiff(ptr, ...)

define { double, double } @grad(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__capsule_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal double @f.capsule.fwd.oor(double %0, double %1)
; CHECK:         %r = fdiv double %0, %1
; CHECK:         call ptr @__capsule_tape_push_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %1, ptr [[YA:%[0-9]+]]
; CHECK-DAG:     [[YA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[YOFF:[0-9]+]]
; CHECK-DAG:     store double %r, ptr [[RA:%[0-9]+]]
; CHECK-DAG:     [[RA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[ROFF:[0-9]+]]
; CHECK-NOT:     store double %0
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double } @f.capsule.rev.oor(double %0)
; CHECK:         call ptr @__capsule_tape_pop_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[RA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[ROFF]]
; CHECK-DAG:     [[R:%[0-9]+]] = load double, ptr [[RA]]
; CHECK-DAG:     [[YA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[YOFF]]
; CHECK-DAG:     [[Y:%[0-9]+]] = load double, ptr [[YA]]
; CHECK:         [[D:%.*]] = fadd double -0.000000e+00, %0
; CHECK-NEXT:    [[Q:%.*]] = fdiv double [[D]], [[Y]]
; CHECK-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[Q]]
; CHECK-NEXT:    [[QR:%.*]] = fmul double [[Q]], [[R]]
; CHECK-NEXT:    [[NQR:%.*]] = fneg double [[QR]]
; CHECK-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[NQR]]
; CHECK:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:         [[R0:%.*]] = insertvalue { double, double } poison, double [[DXN]], 0
; CHECK-NEXT:    [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double } [[R0]], double [[DYN]], 1
; CHECK:         ret { double, double } [[R1]]
