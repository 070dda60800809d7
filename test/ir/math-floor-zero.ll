; floor and ceil are piecewise constant: they pass no adjoint on and need no
; primal values. x reaches the result also directly (dx = d); y only through
; ceil, so its adjoint is the constant 0.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, double %y) {
entry:
  %fl = call double @llvm.floor.f64(double %x)
  %cl = call double @ceil(double %y)
  %a = fadd double %fl, %x
  %r = fadd double %a, %cl
  ret double %r
}

declare double @llvm.floor.f64(double)
declare double @ceil(double)
declare { double, double } @__capsule_autodiff(ptr, ...)

define { double, double } @grad(double %x, double %y) {
entry:
  %g = call { double, double } (ptr, ...) @__capsule_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal double @f.capsule.fwd.oor(double %0, double %1)
; CHECK-NOT:     @__capsule_tape_push_slow
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double } @f.capsule.rev.oor(double %0)
; CHECK-NOT:     call
; CHECK-NOT:     fmul
; CHECK-NOT:     fneg
; CHECK:         [[R0:%.*]] = insertvalue { double, double } poison, double [[DX:%[0-9]+]], 0
; CHECK-NEXT:    insertvalue { double, double } [[R0]], double 0.000000e+00, 1
; CHECK-NEXT:    ret { double, double }
