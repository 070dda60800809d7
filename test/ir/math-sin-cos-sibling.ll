; A rule reuses the program's own result of a sibling function on the same
; argument, in the same block, instead of calling it again: the reverse
; sweep of sin(x) beside cos(x) (rotation code) reads both taped results
; and calls neither function. On different arguments (g), it calls them.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, double %a) {
entry:
  %c = call double @cos(double %x)
  %s = call double @sin(double %x)
  %ca = fmul double %c, %a
  %r = fadd double %ca, %s
  ret double %r
}

define double @g(double %x, double %y) {
entry:
  %c = call double @cos(double %y)
  %s = call double @sin(double %x)
  %r = fmul double %c, %s
  ret double %r
}

declare double @sin(double)
declare double @cos(double)
declare { double, double } @__capsule_autodiff(ptr, ...)

define { double, double } @grad_f(double %x, double %a) {
entry:
  %d = call { double, double } (ptr, ...) @__capsule_autodiff(ptr @f, double %x, double %a)
  ret { double, double } %d
}

define { double, double } @grad_g(double %x, double %y) {
entry:
  %d = call { double, double } (ptr, ...) @__capsule_autodiff(ptr @g, double %x, double %y)
  ret { double, double } %d
}

; CHECK-LABEL: define internal double @g.capsule.fwd.oor(
; CHECK-LABEL: define internal { double, double } @g.capsule.rev.oor(
; CHECK-DAG:     call double @llvm.cos.f64(
; CHECK-DAG:     call double @llvm.sin.f64(
; CHECK:         ret { double, double }

; CHECK-LABEL: define internal double @f.capsule.fwd.oor(
; CHECK-DAG:     store double %c, ptr
; CHECK-DAG:     store double %s, ptr
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double } @f.capsule.rev.oor(
; CHECK-NOT:     call double @{{(llvm\.)?(sin|cos)}}
; CHECK:         ret { double, double }
