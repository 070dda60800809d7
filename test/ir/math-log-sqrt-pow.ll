; log, sqrt and pow:
;   log(x):    dx = d / x
;   sqrt(y):   dy = d / (2 * sqrt(y))   (the taped result, not recomputed)
;   pow(b, p): db = d * (p * pow(b, p - 1))
;              dp = d * (w == 0 ? 0 : w * log(b))   with w = pow(b, p) taped
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, double %y, double %b, double %p) {
entry:
  %l = call double @log(double %x)
  %s = call double @llvm.sqrt.f64(double %y)
  %w = call double @pow(double %b, double %p)
  %a = fadd double %l, %s
  %r = fadd double %a, %w
  ret double %r
}

declare double @log(double)
declare double @pow(double, double)
declare double @llvm.sqrt.f64(double)
declare { double, double, double, double } @__capsule_autodiff(ptr, ...)

define { double, double, double, double } @grad(double %x, double %y, double %b, double %p) {
entry:
  %g = call { double, double, double, double } (ptr, ...) @__capsule_autodiff(ptr @f, double %x, double %y, double %b, double %p)
  ret { double, double, double, double } %g
}

; CHECK-LABEL: define internal double @f.capsule.fwd.oooor(double %0, double %1, double %2, double %3)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %0, ptr [[XA:%[0-9]+]]
; CHECK-DAG:     [[XA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF:[0-9]+]]
; CHECK-DAG:     store double %s, ptr [[SA:%[0-9]+]]
; CHECK-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; CHECK-DAG:     store double %2, ptr [[BA:%[0-9]+]]
; CHECK-DAG:     [[BA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[BOFF:[0-9]+]]
; CHECK-DAG:     store double %3, ptr [[PA:%[0-9]+]]
; CHECK-DAG:     [[PA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[POFF:[0-9]+]]
; CHECK-DAG:     store double %w, ptr [[WA:%[0-9]+]]
; CHECK-DAG:     [[WA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[WOFF:[0-9]+]]
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double, double, double } @f.capsule.rev.oooor(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[XA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF]]
; CHECK-DAG:     [[X:%[0-9]+]] = load double, ptr [[XA]]
; CHECK-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; CHECK-DAG:     [[S:%[0-9]+]] = load double, ptr [[SA]]
; CHECK-DAG:     [[BA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[BOFF]]
; CHECK-DAG:     [[B:%[0-9]+]] = load double, ptr [[BA]]
; CHECK-DAG:     [[PA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[POFF]]
; CHECK-DAG:     [[P:%[0-9]+]] = load double, ptr [[PA]]
; CHECK-DAG:     [[WA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[WOFF]]
; CHECK-DAG:     [[W:%[0-9]+]] = load double, ptr [[WA]]
; pow, base:
; CHECK:         [[PM1:%.*]] = fsub double [[P]], 1.000000e+00
; CHECK-NEXT:    [[POWM1:%.*]] = call double @llvm.pow.f64(double [[B]], double [[PM1]])
; CHECK-NEXT:    [[T:%.*]] = fmul double [[P]], [[POWM1]]
; CHECK-NEXT:    [[DBM:%.*]] = fmul double [[DW:%[0-9]+]], [[T]]
; pow, exponent:
; CHECK-NEXT:    [[LOGB:%.*]] = call double @llvm.log.f64(double [[B]])
; CHECK-NEXT:    [[WL:%.*]] = fmul double [[W]], [[LOGB]]
; CHECK-NEXT:    [[Z:%.*]] = fcmp oeq double [[W]], 0.000000e+00
; CHECK-NEXT:    [[SEL:%.*]] = select i1 [[Z]], double -0.000000e+00, double [[WL]]
; CHECK-NEXT:    [[DPM:%.*]] = fmul double [[DW]], [[SEL]]
; CHECK-NEXT:    [[DB:%.*]] = fadd double -0.000000e+00, [[DBM]]
; CHECK-NEXT:    [[DP:%.*]] = fadd double -0.000000e+00, [[DPM]]
; sqrt:
; CHECK-NEXT:    [[TWOS:%.*]] = fmul double 2.000000e+00, [[S]]
; CHECK-NEXT:    [[DYM:%.*]] = fdiv double {{%[0-9]+}}, [[TWOS]]
; CHECK-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[DYM]]
; log:
; CHECK-NEXT:    [[DXM:%.*]] = fdiv double {{%[0-9]+}}, [[X]]
; CHECK-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[DXM]]
; CHECK-NOT:     @llvm.sqrt
; CHECK:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:         [[R0:%.*]] = insertvalue { double, double, double, double } poison, double [[DXN]], 0
; CHECK-NEXT:    [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double, double, double } [[R0]], double [[DYN]], 1
; CHECK-NEXT:    [[DBN:%.*]] = fadd double [[DB]], 0.000000e+00
; CHECK-NEXT:    [[R2:%.*]] = insertvalue { double, double, double, double } [[R1]], double [[DBN]], 2
; CHECK-NEXT:    [[DPN:%.*]] = fadd double [[DP]], 0.000000e+00
; CHECK-NEXT:    insertvalue { double, double, double, double } [[R2]], double [[DPN]], 3
