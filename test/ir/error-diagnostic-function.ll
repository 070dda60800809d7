; Errors found while differentiating are attached to the user's function,
; not to the internal clone the pass works on: the diagnostic's
; "in function ..." part names 'f', not 'f.capsule.prep'.
; RUN: not %opt -load-pass-plugin=%plugin -passes=capsule -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}in function f double (double): capsule: cannot differentiate function 'f'

define double @f(double %x) {
entry:
  %y = call double @mystery(double %x)
  ret double %y
}

declare double @mystery(double)
declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x)
  ret double %d
}
