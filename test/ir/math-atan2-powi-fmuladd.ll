; Two- and three-argument rules:
;   atan2(y, x):        dy = d * x / (y*y + x*x), dx = -(d * y / (y*y + x*x))
;   powi(b, n):         db = d * (sitofp(n) * powi(b, n - 1)), n is const
;   fmuladd(u, v, w):   du = d * v, dv = d * u, dw = d
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %y, double %x, double %b, i32 %n, double %u, double %v, double %w) {
entry:
  %t = call double @atan2(double %y, double %x)
  %p = call double @llvm.powi.f64.i32(double %b, i32 %n)
  %m = call double @llvm.fmuladd.f64(double %u, double %v, double %w)
  %s = fadd double %t, %p
  %r = fadd double %s, %m
  ret double %r
}

declare double @atan2(double, double)
declare double @llvm.powi.f64.i32(double, i32)
declare double @llvm.fmuladd.f64(double, double, double)
declare void @__capsule_autodiff(ptr, ...)

define void @grad(double %y, double %x, double %b, i32 %n, double %u, double %v, double %w) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @f, double %y, double %x, double %b, i32 %n, double %u, double %v, double %w)
  ret void
}

; CHECK-LABEL: define internal double @f.capsule.fwd.ooocooor(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %0, ptr [[YA:%[0-9]+]]
; CHECK-DAG:     [[YA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[YOFF:[0-9]+]]
; CHECK-DAG:     store double %1, ptr [[XA:%[0-9]+]]
; CHECK-DAG:     [[XA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF:[0-9]+]]
; CHECK-DAG:     store double %2, ptr [[BA:%[0-9]+]]
; CHECK-DAG:     [[BA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[BOFF:[0-9]+]]
; CHECK-DAG:     store i32 %3, ptr [[NA:%[0-9]+]]
; CHECK-DAG:     [[NA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[NOFF:[0-9]+]]
; CHECK-DAG:     store double %4, ptr [[UA:%[0-9]+]]
; CHECK-DAG:     [[UA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[UOFF:[0-9]+]]
; CHECK-DAG:     store double %5, ptr [[VA:%[0-9]+]]
; CHECK-DAG:     [[VA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[VOFF:[0-9]+]]
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double, double, double, double, double } @f.capsule.rev.ooocooor(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[YA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[YOFF]]
; CHECK-DAG:     [[Y:%[0-9]+]] = load double, ptr [[YA]]
; CHECK-DAG:     [[XA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF]]
; CHECK-DAG:     [[X:%[0-9]+]] = load double, ptr [[XA]]
; CHECK-DAG:     [[BA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[BOFF]]
; CHECK-DAG:     [[B:%[0-9]+]] = load double, ptr [[BA]]
; CHECK-DAG:     [[NA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[NOFF]]
; CHECK-DAG:     [[N:%[0-9]+]] = load i32, ptr [[NA]]
; CHECK-DAG:     [[UA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[UOFF]]
; CHECK-DAG:     [[U:%[0-9]+]] = load double, ptr [[UA]]
; CHECK-DAG:     [[VA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[VOFF]]
; CHECK-DAG:     [[V:%[0-9]+]] = load double, ptr [[VA]]
; fmuladd:
; CHECK:         [[DUM:%.*]] = fmul double [[DM:%[0-9]+]], [[V]]
; CHECK-NEXT:    [[DVM:%.*]] = fmul double [[DM]], [[U]]
; CHECK-NEXT:    [[DU:%.*]] = fadd double -0.000000e+00, [[DUM]]
; CHECK-NEXT:    [[DV:%.*]] = fadd double -0.000000e+00, [[DVM]]
; CHECK-NEXT:    [[DW:%.*]] = fadd double -0.000000e+00, [[DM]]
; powi:
; CHECK-NEXT:    [[NM1:%.*]] = sub i32 [[N]], 1
; CHECK-NEXT:    [[PM1:%.*]] = call double @llvm.powi.f64.i32(double [[B]], i32 [[NM1]])
; CHECK-NEXT:    [[NF:%.*]] = sitofp i32 [[N]] to double
; CHECK-NEXT:    [[T:%.*]] = fmul double [[NF]], [[PM1]]
; CHECK-NEXT:    [[DBM:%.*]] = fmul double {{%[0-9]+}}, [[T]]
; CHECK-NEXT:    [[DB:%.*]] = fadd double -0.000000e+00, [[DBM]]
; atan2 (the two squares come in the order the compiler that built the
; plugin evaluates call arguments in):
; CHECK-DAG:     [[YY:%.*]] = fmul double [[Y]], [[Y]]
; CHECK-DAG:     [[XX:%.*]] = fmul double [[X]], [[X]]
; CHECK:         [[DEN:%.*]] = fadd double [[YY]], [[XX]]
; CHECK-NEXT:    [[DX_:%.*]] = fmul double [[DT:%[0-9]+]], [[X]]
; CHECK-NEXT:    [[DYQ:%.*]] = fdiv double [[DX_]], [[DEN]]
; CHECK-NEXT:    [[DY_:%.*]] = fmul double [[DT]], [[Y]]
; CHECK-NEXT:    [[DXQ:%.*]] = fdiv double [[DY_]], [[DEN]]
; CHECK-NEXT:    [[DXN:%.*]] = fneg double [[DXQ]]
; CHECK-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[DYQ]]
; CHECK-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[DXN]]
; The out arguments in order; the const n has no slot.
; CHECK:         [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; CHECK-NEXT:    [[R0:%.*]] = insertvalue {{.*}} poison, double [[DYN]], 0
; CHECK-NEXT:    [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:    [[R1:%.*]] = insertvalue {{.*}} [[R0]], double [[DXN]], 1
; CHECK-NEXT:    [[DBN:%.*]] = fadd double [[DB]], 0.000000e+00
; CHECK-NEXT:    [[R2:%.*]] = insertvalue {{.*}} [[R1]], double [[DBN]], 2
; CHECK-NEXT:    [[DUN:%.*]] = fadd double [[DU]], 0.000000e+00
; CHECK-NEXT:    [[R3:%.*]] = insertvalue {{.*}} [[R2]], double [[DUN]], 3
; CHECK-NEXT:    [[DVN:%.*]] = fadd double [[DV]], 0.000000e+00
; CHECK-NEXT:    [[R4:%.*]] = insertvalue {{.*}} [[R3]], double [[DVN]], 4
; CHECK-NEXT:    [[DWN:%.*]] = fadd double [[DW]], 0.000000e+00
; CHECK-NEXT:    insertvalue {{.*}} [[R4]], double [[DWN]], 5
