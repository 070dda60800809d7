; A constant global never changes and its data carries no derivative: it
; gets no shadow global, nothing zeroes anything at gradient begin, and the
; value loaded from it is only a constant factor (taped for the product
; rule, never accumulated anywhere).
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
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %c, ptr [[CA:%[0-9]+]]
; CHECK-DAG:     [[CA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[COFF:[0-9]+]]
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double } @f.capsule.rev.or(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[CA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[COFF]]
; CHECK-DAG:     [[C:%[0-9]+]] = load double, ptr [[CA]]
; CHECK-NOT:     @coef
; CHECK:         [[DXM:%.*]] = fmul double {{%[0-9]+}}, [[C]]
; CHECK-NEXT:    [[DX:%.*]] = fadd double 0.000000e+00, [[DXM]]
; CHECK-NOT:     @coef
; CHECK-NOT:     store double
; CHECK:         insertvalue { double } poison, double [[DX]], 0
