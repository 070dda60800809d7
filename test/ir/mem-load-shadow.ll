; A load from memory that has a shadow makes the loaded value active; the
; reverse sweep adds the loaded value's adjoint into the shadow memory
; (shadow[p] += dv: load, fadd, store), through the shadow pointer the
; forward sweep taped.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(ptr %p) {
entry:
  %v = load double, ptr %p, align 8
  %r = fmul double %v, %v
  ret double %r
}

declare void @__capsule_autodiff(ptr, ...)

define void @grad(ptr %p, ptr %dp) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal double @f.capsule.fwd.dr(ptr %0, ptr %"p'")
; CHECK:         %v = load double, ptr %0
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store ptr %"p'", ptr [[SA:%[0-9]+]]
; CHECK-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; CHECK:         ret double %r

; CHECK-LABEL: define internal {} @f.capsule.rev.dr(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; CHECK-DAG:     [[SP:%[0-9]+]] = load ptr, ptr [[SA]]
; CHECK:         [[DV:%[0-9]+]] = fadd double {{%[0-9]+}}, {{%[0-9]+}}
; CHECK-NEXT:    [[OLD:%.*]] = load double, ptr [[SP]]
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], [[DV]]
; CHECK-NEXT:    store double [[NEW]], ptr [[SP]]
; CHECK:         ret {} poison
