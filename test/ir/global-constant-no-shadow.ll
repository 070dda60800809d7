; A constant global never changes and its data carries no derivative: it
; gets no shadow global, nothing zeroes anything at gradient begin, and the
; value loaded from it is only a constant factor, which the reverse sweep
; loads again instead of taping it (nothing can have overwritten it).
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

@coef = constant [2 x double] [double 3.0, double 4.0], align 8

; CHECK-NOT: capsule.shadow

define double @f(double %x) {
entry:
  %c = load double, ptr getelementptr inbounds ([2 x double], ptr @coef, i64 0, i64 1), align 8
  %r = fmul double %x, %c
  ret double %r
}

declare double @__capsule_autodiff(ptr, ...)

; CHECK-LABEL: define double @grad(double %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @__capsule_gradient_begin()
; CHECK-NEXT:    call double @f.capsule.fwd.or(double %x)
define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define internal double @f.capsule.fwd.or(double %0)
; CHECK-NOT:     tape
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double } @f.capsule.rev.or(double %0)
; CHECK-NOT:     tape
; CHECK:         [[C:%.*]] = load double, ptr getelementptr inbounds ([2 x double], ptr @coef, i64 0, i64 1)
; CHECK:         fmul double %{{[0-9]+}}, [[C]]
; CHECK:         ret { double }
