; select: the forward sweep tapes the condition, and the reverse
; sweep routes the adjoint with selects on the reloaded condition: the true
; operand gets d when the condition held, the false operand otherwise.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %c = fcmp olt double %x, %y
  %r = select i1 %c, double %x, double %y
  ret double %r
}

declare { double, double } @__capsule_autodiff(ptr, ...)

define { double, double } @grad(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__capsule_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal double @f.capsule.fwd.oor(double %0, double %1)
; CHECK:         %c = fcmp olt double %0, %1
; CHECK:         call ptr @__capsule_tape_push_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-NEXT:    [[A:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 [[COFF:[0-9]+]]
; CHECK-NEXT:    store i1 %c, ptr [[A]]
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double } @f.capsule.rev.oor(double %0)
; CHECK:         call ptr @__capsule_tape_pop_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-NEXT:    [[A:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 [[COFF]]
; CHECK-NEXT:    [[C:%.*]] = load i1, ptr [[A]]
; CHECK-NEXT:    [[D:%.*]] = fadd double -0.000000e+00, %0
; CHECK-NEXT:    [[TD:%.*]] = select i1 [[C]], double [[D]], double -0.000000e+00
; CHECK-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[TD]]
; CHECK-NEXT:    [[FD:%.*]] = select i1 [[C]], double -0.000000e+00, double [[D]]
; CHECK-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[FD]]
; CHECK:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:         [[R0:%.*]] = insertvalue { double, double } poison, double [[DXN]], 0
; CHECK-NEXT:    [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; CHECK-NEXT:    insertvalue { double, double } [[R0]], double [[DYN]], 1
