; Floating-point code that depends only on const arguments is inactive: k =
; c * c and s = sin(k) get no adjoints, so the reverse sweep has no cos (the
; derivative of sin) and a single fmul, d * s for x. s is taped as a primal
; value; k and c are not.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

@capsule_const = external global i32

define double @f(double %x, double %c) {
entry:
  %k = fmul double %c, %c
  %s = call double @sin(double %k)
  %r = fmul double %x, %s
  ret double %r
}

declare double @sin(double)
declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x, double %c) {
entry:
  %m = load i32, ptr @capsule_const
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x, i32 %m, double %c)
  ret double %d
}

; CHECK-LABEL: define internal double @f.capsule.fwd.ocr(double %0, double %1)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %s, ptr [[SA:%[0-9]+]]
; CHECK-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; CHECK-NOT:     store double %k
; CHECK-NOT:     store double %1
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double } @f.capsule.rev.ocr(double %0)
; CHECK-NOT:     @llvm.cos
; CHECK-NOT:     @sin
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; CHECK-DAG:     [[S:%[0-9]+]] = load double, ptr [[SA]]
; CHECK:         [[D:%[0-9]+]] = fadd double -0.000000e+00, %0
; CHECK-NEXT:    [[DXM:%[0-9]+]] = fmul double [[D]], [[S]]
; CHECK-NEXT:    [[DX:%[0-9]+]] = fadd double -0.000000e+00, [[DXM]]
; CHECK-NOT:     fmul
; CHECK-NOT:     call
; CHECK:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:         insertvalue { double } poison, double [[DXN]], 0
