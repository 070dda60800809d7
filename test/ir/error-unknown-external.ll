; An external function without a known derivative that receives an active
; double stops the compilation with an error naming the differentiated
; function, the callee and the instruction, and says what the user can do.
; RUN: not %opt -load-pass-plugin=%plugin -passes=capsule -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}capsule: cannot differentiate function 'f'
; CHECK-SAME: call to a function without a body and without a known derivative ('mystery')
; CHECK-SAME: register a derivative rule for it (CAPSULE_GRADIENT and CAPSULE_DERIVATIVE
; CHECK-NEXT: in instruction: %y = call double @mystery(double %x)

define double @f(double %x) {
entry:
  %y = call double @mystery(double %x)
  %r = fmul double %y, %x
  ret double %r
}

declare double @mystery(double)
declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x)
  ret double %d
}
