; memcpy and memmove of doubles between memories that have shadows: the
; forward sweep copies only the primal data (no shadow copy: the shadows hold
; adjoints, not pointers), and the reverse sweep moves the destination's
; adjoints back to the source with __capsule_copy_adjoint_f64(dsrc, ddst,
; bytes), after the adjoints of the later loads have been added.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s -o %t
; RUN: FileCheck --check-prefix=CPY %s < %t
; RUN: FileCheck --check-prefix=MOVE %s < %t

define double @cpy(ptr %dst, ptr %src, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 %bytes, i1 false)
  %v = load double, ptr %dst, align 8
  %w = load double, ptr %src, align 8
  %r = fmul double %v, %w
  ret double %r
}

define double @move(ptr %dst, ptr %src, i64 %bytes) {
entry:
  call void @llvm.memmove.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 %bytes, i1 false)
  %v = load double, ptr %dst, align 8
  ret double %v
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @__capsule_autodiff(ptr, ...)

define void @grad(ptr %a, ptr %da, ptr %b, ptr %db, i64 %n) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @cpy, ptr %a, ptr %da, ptr %b, ptr %db, i64 %n)
  call void (ptr, ...) @__capsule_autodiff(ptr @move, ptr %a, ptr %da, ptr %b, ptr %db, i64 %n)
  ret void
}

; CPY-LABEL: define internal double @cpy.capsule.fwd.ddcr(ptr %0, ptr %1, i64 %2, ptr %"dst'", ptr %"src'")
; CPY:         call void @llvm.memcpy.p0.p0.i64(ptr align 8 %0, ptr align 8 %1, i64 %bytes, i1 false)
; CPY-NOT:     @llvm.memcpy
; CPY:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CPY-DAG:     store ptr %"dst'", ptr [[DA:%[0-9]+]]
; CPY-DAG:     [[DA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[DOFF:[0-9]+]]
; CPY-DAG:     store ptr %"src'", ptr [[SA:%[0-9]+]]
; CPY-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; CPY-NOT:     @llvm.memcpy
; CPY:         ret double %r

; CPY-LABEL: define internal {} @cpy.capsule.rev.ddcr(double %0)
; CPY:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CPY-DAG:     [[DA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[DOFF]]
; CPY-DAG:     [[DDST:%[0-9]+]] = load ptr, ptr [[DA]]
; CPY-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; CPY-DAG:     [[DSRC:%[0-9]+]] = load ptr, ptr [[SA]]
; CPY:         store double {{%[0-9]+}}, ptr [[DSRC]]
; CPY:         store double {{%[0-9]+}}, ptr [[DDST]]
; CPY:         call void @__capsule_copy_adjoint_f64(ptr [[DSRC]], ptr [[DDST]], i64 {{%[0-9]+}})
; CPY-NOT:     @llvm.memcpy
; CPY:         ret {} poison

; MOVE-LABEL: define internal double @move.capsule.fwd.ddcr(ptr %0, ptr %1, i64 %2, ptr %"dst'", ptr %"src'")
; MOVE:         call void @llvm.memmove.p0.p0.i64(ptr align 8 %0, ptr align 8 %1, i64 %2, i1 false)
; MOVE-NOT:     @llvm.memmove
; MOVE:         [[REC:%tape.rec[0-9]*]] = phi ptr
; MOVE-DAG:     store ptr %"dst'", ptr [[DA:%[0-9]+]]
; MOVE-DAG:     [[DA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[DOFF:[0-9]+]]
; MOVE-DAG:     store ptr %"src'", ptr [[SA:%[0-9]+]]
; MOVE-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; MOVE-DAG:     store i64 %2, ptr [[NA:%[0-9]+]]
; MOVE-DAG:     [[NA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[NOFF:[0-9]+]]
; MOVE:         ret double %v

; MOVE-LABEL: define internal {} @move.capsule.rev.ddcr(double %0)
; MOVE:         [[REC:%tape.rec[0-9]*]] = phi ptr
; MOVE-DAG:     [[DA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[DOFF]]
; MOVE-DAG:     [[DDST:%[0-9]+]] = load ptr, ptr [[DA]]
; MOVE-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; MOVE-DAG:     [[DSRC:%[0-9]+]] = load ptr, ptr [[SA]]
; MOVE-DAG:     [[NA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[NOFF]]
; MOVE-DAG:     [[N:%[0-9]+]] = load i64, ptr [[NA]]
; MOVE:         store double {{%[0-9]+}}, ptr [[DDST]]
; MOVE:         call void @__capsule_copy_adjoint_f64(ptr [[DSRC]], ptr [[DDST]], i64 [[N]])
; MOVE-NOT:     @llvm.memmove
; MOVE:         ret {} poison
