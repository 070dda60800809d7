; memset overwrites memory with a constant, which passes no adjoint on: the
; reverse sweep zeroes the same bytes of the shadow (same length, taped).
; The load before the memset is reversed after it, so its adjoint lands in
; the shadow once the memset's zeroing is done.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(ptr %p, i64 %n) {
entry:
  %v = load double, ptr %p, align 8
  call void @llvm.memset.p0.i64(ptr align 8 %p, i8 0, i64 %n, i1 false)
  ret double %v
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @__capsule_autodiff(ptr, ...)

define void @grad(ptr %p, ptr %dp, i64 %n) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @f, ptr %p, ptr %dp, i64 %n)
  ret void
}

; The forward sweep leaves the shadow alone.
; CHECK-LABEL: define internal double @f.capsule.fwd.dcr(ptr %0, i64 %1, ptr %"p'")
; CHECK:         call void @llvm.memset.p0.i64(ptr align 8 %0, i8 0, i64 %1, i1 false)
; CHECK-NOT:     @llvm.memset
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store ptr %"p'", ptr [[SA:%[0-9]+]]
; CHECK-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; CHECK-DAG:     store i64 %1, ptr [[NA:%[0-9]+]]
; CHECK-DAG:     [[NA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[NOFF:[0-9]+]]
; CHECK-NOT:     @llvm.memset
; CHECK:         ret double %v

; CHECK-LABEL: define internal {} @f.capsule.rev.dcr(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; CHECK-DAG:     [[SP:%[0-9]+]] = load ptr, ptr [[SA]]
; CHECK-DAG:     [[NA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[NOFF]]
; CHECK-DAG:     [[N:%[0-9]+]] = load i64, ptr [[NA]]
; CHECK:         call void @llvm.memset.p0.i64(ptr [[SP]], i8 0, i64 [[N]], i1 false)
; CHECK-NEXT:    [[OLD:%.*]] = load double, ptr [[SP]]
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], {{%[0-9]+}}
; CHECK-NEXT:    store double [[NEW]], ptr [[SP]]
