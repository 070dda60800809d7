; A marker call made with `invoke` (clang++ emits one for the C++ template
; marker, or an Enzyme-style extern marker, where a local with a destructor
; is in scope, since neither declaration is noexcept): the gradient sequence
; goes before the invoke, which becomes a branch to its normal destination,
; where the adjoint replaces the marker's result. The forward sweep, which
; runs f's code and may throw what f throws, is invoked with the marker's
; landing pad.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x) {
entry:
  %r = fmul double %x, %x
  ret double %r
}

declare double @__capsule_autodiff(ptr, ...)
declare i32 @__gxx_personality_v0(...)
declare void @cleanup()

; CHECK-LABEL: define double @grad(double %x)
; CHECK:         call void @__capsule_gradient_begin()
; CHECK-NEXT:    invoke double @f.capsule.fwd.or(double %x)
; CHECK-NEXT:      to label %[[CONT:.*]] unwind label %lp
; CHECK:       [[CONT]]:
; CHECK-NEXT:    call void @__capsule_gradient_forward_done()
; CHECK-NEXT:    [[ADJ:%.*]] = call { double } @f.capsule.rev.or(double 1.000000e+00)
; CHECK-NEXT:    call void @__capsule_gradient_end()
; CHECK-NEXT:    [[DX:%.*]] = extractvalue { double } [[ADJ]], 0
; CHECK-NEXT:    br label %ok
; CHECK:       {{^}}ok:
; CHECK-NEXT:    ret double [[DX]]
define double @grad(double %x) personality ptr @__gxx_personality_v0 {
entry:
  %d = invoke double (ptr, ...) @__capsule_autodiff(ptr @f, double %x)
          to label %ok unwind label %lp
ok:
  ret double %d
lp:
  %l = landingpad { ptr, i32 } cleanup
  call void @cleanup()
  resume { ptr, i32 } %l
}
