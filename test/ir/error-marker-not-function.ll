; The first argument of a marker call must be a function defined in the
; module (possibly behind a cast); a function pointer only known at run time
; is an error.
; RUN: not %opt -load-pass-plugin=%plugin -passes=capsule -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}capsule: malformed call
; CHECK-SAME: the first argument must be the function to differentiate

declare double @__capsule_autodiff(ptr, ...)

define double @grad(ptr %fn, double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr %fn, double %x)
  ret double %d
}
