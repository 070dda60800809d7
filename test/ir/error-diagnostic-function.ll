; XFAIL: *
; Pass bug (cosmetic): errors found while differentiating are reported
; against the internal clone the pass works on, so the diagnostic's
; "in function ..." part names 'f.capsule.prep' instead of the user's 'f'
; (clang prints it in front of the message: "error: x.c:3:7: in function
; f.capsule.prep double (double): capsule: ..."). The message itself does
; name 'f'.
; Expected: the diagnostic is attached to f.
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
