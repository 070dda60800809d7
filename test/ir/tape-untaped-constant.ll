; Constant operands are never taped: the reverse sweep uses the constants
; themselves. (x * 2.5) / 4.0 needs no primal value at all (the divisor is
; a constant, so the quotient is not needed either), so the forward sweep
; pushes no record and the reverse sweep pops none.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x) {
entry:
  %a = fmul double %x, 2.5
  %b = fdiv double %a, 4.0
  ret double %b
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define internal double @f.capsule.fwd.or(double %0)
; CHECK-NOT:     @__capsule_tape
; CHECK:         ret double %b

; CHECK-LABEL: define internal { double } @f.capsule.rev.or(double %0)
; CHECK-NOT:     @__capsule_tape
; CHECK:         [[D:%[0-9]+]] = fadd double -0.000000e+00, %0
; CHECK-NEXT:    [[Q:%[0-9]+]] = fdiv double [[D]], 4.000000e+00
; CHECK-NEXT:    [[DA:%[0-9]+]] = fadd double -0.000000e+00, [[Q]]
; CHECK-NEXT:    [[DXM:%[0-9]+]] = fmul double [[DA]], 2.500000e+00
; CHECK-NEXT:    [[DX:%[0-9]+]] = fadd double -0.000000e+00, [[DXM]]
; CHECK-NOT:     @__capsule_tape
; CHECK:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:         insertvalue { double } poison, double [[DXN]], 0
