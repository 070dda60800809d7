; Piecewise-linear functions route the adjoint with selects:
;   fabs(x):     dx = x < 0 ? -d : d
;   fmin(a, b):  da = m == a ? d : 0, db = m == a ? 0 : d   (m the taped result)
;   maxnum(c, e): the same with the taped maximum
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, double %a, double %b, double %c, double %e) {
entry:
  %ab = call double @llvm.fabs.f64(double %x)
  %mn = call double @fmin(double %a, double %b)
  %mx = call double @llvm.maxnum.f64(double %c, double %e)
  %s = fadd double %ab, %mn
  %r = fadd double %s, %mx
  ret double %r
}

declare double @fmin(double, double)
declare double @llvm.fabs.f64(double)
declare double @llvm.maxnum.f64(double, double)
declare void @__capsule_autodiff(ptr, ...)

define void @grad(double %x, double %a, double %b, double %c, double %e) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @f, double %x, double %a, double %b, double %c, double %e)
  ret void
}

; CHECK-LABEL: define internal double @f.capsule.fwd.ooooor(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %0, ptr [[XA:%[0-9]+]]
; CHECK-DAG:     [[XA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF:[0-9]+]]
; CHECK-DAG:     store double %1, ptr [[AA:%[0-9]+]]
; CHECK-DAG:     [[AA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[AOFF:[0-9]+]]
; CHECK-DAG:     store double %mn, ptr [[MNA:%[0-9]+]]
; CHECK-DAG:     [[MNA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[MNOFF:[0-9]+]]
; CHECK-DAG:     store double %3, ptr [[CA:%[0-9]+]]
; CHECK-DAG:     [[CA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[COFF:[0-9]+]]
; CHECK-DAG:     store double %mx, ptr [[MXA:%[0-9]+]]
; CHECK-DAG:     [[MXA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[MXOFF:[0-9]+]]
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double, double, double, double } @f.capsule.rev.ooooor(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[XA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF]]
; CHECK-DAG:     [[X:%[0-9]+]] = load double, ptr [[XA]]
; CHECK-DAG:     [[AA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[AOFF]]
; CHECK-DAG:     [[A:%[0-9]+]] = load double, ptr [[AA]]
; CHECK-DAG:     [[MNA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[MNOFF]]
; CHECK-DAG:     [[MN:%[0-9]+]] = load double, ptr [[MNA]]
; CHECK-DAG:     [[CA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[COFF]]
; CHECK-DAG:     [[C:%[0-9]+]] = load double, ptr [[CA]]
; CHECK-DAG:     [[MXA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[MXOFF]]
; CHECK-DAG:     [[MX:%[0-9]+]] = load double, ptr [[MXA]]
; maxnum:
; CHECK:         [[TOOKC:%.*]] = fcmp oeq double [[MX]], [[C]]
; CHECK-NEXT:    [[DCS:%.*]] = select i1 [[TOOKC]], double [[DMX:%[0-9]+]], double -0.000000e+00
; CHECK-NEXT:    [[DES:%.*]] = select i1 [[TOOKC]], double -0.000000e+00, double [[DMX]]
; CHECK-NEXT:    [[DC:%.*]] = fadd double -0.000000e+00, [[DCS]]
; CHECK-NEXT:    [[DE:%.*]] = fadd double -0.000000e+00, [[DES]]
; fmin:
; CHECK-NEXT:    [[TOOKA:%.*]] = fcmp oeq double [[MN]], [[A]]
; CHECK-NEXT:    [[DAS:%.*]] = select i1 [[TOOKA]], double [[DMN:%[0-9]+]], double -0.000000e+00
; CHECK-NEXT:    [[DBS:%.*]] = select i1 [[TOOKA]], double -0.000000e+00, double [[DMN]]
; CHECK-NEXT:    [[DA:%.*]] = fadd double -0.000000e+00, [[DAS]]
; CHECK-NEXT:    [[DB:%.*]] = fadd double -0.000000e+00, [[DBS]]
; fabs:
; CHECK-NEXT:    [[NEG:%.*]] = fcmp olt double [[X]], 0.000000e+00
; CHECK-NEXT:    [[MINUS:%.*]] = fneg double [[DAB:%[0-9]+]]
; CHECK-NEXT:    [[DXS:%.*]] = select i1 [[NEG]], double [[MINUS]], double [[DAB]]
; CHECK-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[DXS]]
; CHECK:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:    [[R0:%.*]] = insertvalue {{.*}} poison, double [[DXN]], 0
; CHECK-NEXT:    [[DAN:%.*]] = fadd double [[DA]], 0.000000e+00
; CHECK-NEXT:    [[R1:%.*]] = insertvalue {{.*}} [[R0]], double [[DAN]], 1
; CHECK-NEXT:    [[DBN:%.*]] = fadd double [[DB]], 0.000000e+00
; CHECK-NEXT:    [[R2:%.*]] = insertvalue {{.*}} [[R1]], double [[DBN]], 2
; CHECK-NEXT:    [[DCN:%.*]] = fadd double [[DC]], 0.000000e+00
; CHECK-NEXT:    [[R3:%.*]] = insertvalue {{.*}} [[R2]], double [[DCN]], 3
; CHECK-NEXT:    [[DEN:%.*]] = fadd double [[DE]], 0.000000e+00
; CHECK-NEXT:    insertvalue {{.*}} [[R3]], double [[DEN]], 4
