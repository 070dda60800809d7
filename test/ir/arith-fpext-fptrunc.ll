; Precision changes: the adjoint of fptrunc(s) is fpext'ed back to s's type,
; the adjoint of fpext(x) is fptrunc'ed back to x's type. A float result is
; seeded with float 1.0; casts need no primal values, so nothing is taped.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define float @f(float %x, double %y) {
entry:
  %xe = fpext float %x to double
  %s = fadd double %xe, %y
  %t = fptrunc double %s to float
  ret float %t
}

declare { float, double } @__capsule_autodiff(ptr, ...)

; CHECK-LABEL: define { float, double } @grad(
; CHECK:         call { float, double } @f.capsule.rev.oor(float 1.000000e+00)
define { float, double } @grad(float %x, double %y) {
entry:
  %g = call { float, double } (ptr, ...) @__capsule_autodiff(ptr @f, float %x, double %y)
  ret { float, double } %g
}

; CHECK-LABEL: define internal float @f.capsule.fwd.oor(float %0, double %1)
; CHECK-NOT:     @__capsule_tape_push_slow
; CHECK:         ret float %t

; CHECK-LABEL: define internal { float, double } @f.capsule.rev.oor(float %0)
; CHECK-NOT:     @__capsule_tape_pop_slow
; CHECK:         [[DT:%.*]] = fadd float -0.000000e+00, %0
; CHECK-NEXT:    [[DTE:%.*]] = fpext float [[DT]] to double
; CHECK-NEXT:    [[DS:%.*]] = fadd double -0.000000e+00, [[DTE]]
; CHECK-NEXT:    [[DXE:%.*]] = fadd double -0.000000e+00, [[DS]]
; CHECK-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[DS]]
; CHECK-NEXT:    [[DXT:%.*]] = fptrunc double [[DXE]] to float
; CHECK-NEXT:    [[DX:%.*]] = fadd float -0.000000e+00, [[DXT]]
; CHECK:         [[DXN:%.*]] = fadd float [[DX]], 0.000000e+00
; CHECK-NEXT:         [[R0:%.*]] = insertvalue { float, double } poison, float [[DXN]], 0
; CHECK-NEXT:    [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; CHECK-NEXT:    insertvalue { float, double } [[R0]], double [[DYN]], 1
