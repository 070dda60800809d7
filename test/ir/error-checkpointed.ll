; __capsule_autodiff_checkpointed is recognised as a marker but not yet
; supported: a clear error rather than a silent miscompile or a plain call
; to an undefined function.
; RUN: not %opt -load-pass-plugin=%plugin -passes=capsule -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}capsule: malformed call
; CHECK-SAME: __capsule_autodiff_checkpointed is not yet supported

define double @f(double %x) {
entry:
  %r = fmul double %x, %x
  ret double %r
}

declare double @__capsule_autodiff_checkpointed(ptr, ...)

define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff_checkpointed(ptr @f, double %x)
  ret double %d
}
