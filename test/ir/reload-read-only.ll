; In the function a marker calls, a value loaded from memory that nothing in
; the function may overwrite is loaded again by the reverse sweep instead of
; being taped (nothing runs between the two sweeps of that function). When a
; store through another argument may alias it, it is taped.
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %t/readonly.ll | FileCheck %s --check-prefix=RO
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %t/aliased.ll | FileCheck %s --check-prefix=AL

;--- readonly.ll
define double @f(ptr %x, ptr %w) {
entry:
  %a = load double, ptr %x
  %b = load double, ptr %w
  %r = fmul double %a, %b
  ret double %r
}
@capsule_const = external global i32
declare double @__capsule_autodiff(ptr, ...)
define double @grad(ptr %x, ptr %dx, ptr %w) {
  %c = load i32, ptr @capsule_const
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, ptr %x, ptr %dx, i32 %c, ptr %w)
  ret double %d
}
; The forward sweep tapes no double (only the pointers); the reverse sweep
; loads w's value again for dx += d * w.
; RO-LABEL: define internal double @f.capsule.fwd.dcr(
; RO-NOT:     store double
; RO:         ret double
; RO-LABEL: define internal {} @f.capsule.rev.dcr(
; RO:         [[W:%[0-9]+]] = load double, ptr %{{[0-9]+}}, align 8
; RO:         fmul double %{{[0-9]+}}, [[W]]

;--- aliased.ll
define double @f(ptr %x, ptr %y) {
entry:
  %a = load double, ptr %x
  store double 2.0, ptr %y
  %r = fmul double %a, %a
  ret double %r
}
declare double @__capsule_autodiff(ptr, ...)
define double @grad(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret double %d
}
; %y may alias %x, so %a is taped in the forward sweep.
; AL-LABEL: define internal double @f.capsule.fwd.ddr(
; AL:         store double %a, ptr
; AL-LABEL: define internal {} @f.capsule.rev.ddr(
