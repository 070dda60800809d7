; sin, cos and exp, as libm calls and as intrinsics:
;   sin(x): dx = d * cos(x)       (llvm.cos on the taped x)
;   cos(y): dy = -(d * sin(y))    (llvm.sin on the taped y)
;   exp(z): dz = d * exp(z)       (the taped result; exp is not recomputed)
; Offsets captured from the forward sweep's stores tie each reverse-sweep
; load to the primal value it reloads.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, double %y, double %z) {
entry:
  %s = call double @sin(double %x)
  %c = call double @llvm.cos.f64(double %y)
  %e = call double @exp(double %z)
  %a = fadd double %s, %c
  %r = fadd double %a, %e
  ret double %r
}

declare double @sin(double)
declare double @exp(double)
declare double @llvm.cos.f64(double)
declare { double, double, double } @__capsule_autodiff(ptr, ...)

define { double, double, double } @grad(double %x, double %y, double %z) {
entry:
  %g = call { double, double, double } (ptr, ...) @__capsule_autodiff(ptr @f, double %x, double %y, double %z)
  ret { double, double, double } %g
}

; CHECK-LABEL: define internal double @f.capsule.fwd.ooor(double %0, double %1, double %2)
; CHECK:         %e = call double @exp(double %2)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %0, ptr [[XA:%[0-9]+]]
; CHECK-DAG:     [[XA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF:[0-9]+]]
; CHECK-DAG:     store double %1, ptr [[YA:%[0-9]+]]
; CHECK-DAG:     [[YA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[YOFF:[0-9]+]]
; CHECK-DAG:     store double %e, ptr [[EA:%[0-9]+]]
; CHECK-DAG:     [[EA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[EOFF:[0-9]+]]
; CHECK-NOT:     store double %2
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double, double, double } @f.capsule.rev.ooor(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[XA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[XOFF]]
; CHECK-DAG:     [[X:%[0-9]+]] = load double, ptr [[XA]]
; CHECK-DAG:     [[YA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[YOFF]]
; CHECK-DAG:     [[Y:%[0-9]+]] = load double, ptr [[YA]]
; CHECK-DAG:     [[EA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[EOFF]]
; CHECK-DAG:     [[E:%[0-9]+]] = load double, ptr [[EA]]
; CHECK-NOT:     @exp
; CHECK:         [[DZM:%.*]] = fmul double {{%[0-9]+}}, [[E]]
; CHECK-NEXT:    [[DZ:%.*]] = fadd double -0.000000e+00, [[DZM]]
; CHECK-NEXT:    [[SINY:%.*]] = call double @llvm.sin.f64(double [[Y]])
; CHECK-NEXT:    [[DYM:%.*]] = fmul double {{%[0-9]+}}, [[SINY]]
; CHECK-NEXT:    [[DYN:%.*]] = fneg double [[DYM]]
; CHECK-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[DYN]]
; CHECK-NEXT:    [[COSX:%.*]] = call double @llvm.cos.f64(double [[X]])
; CHECK-NEXT:    [[DXM:%.*]] = fmul double {{%[0-9]+}}, [[COSX]]
; CHECK-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[DXM]]
; CHECK:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; CHECK-NEXT:         [[R0:%.*]] = insertvalue { double, double, double } poison, double [[DXN]], 0
; CHECK-NEXT:    [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double, double } [[R0]], double [[DYN]], 1
; CHECK-NEXT:    [[DZN:%.*]] = fadd double [[DZ]], 0.000000e+00
; CHECK-NEXT:    insertvalue { double, double, double } [[R1]], double [[DZN]], 2
