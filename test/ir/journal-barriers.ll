; Journal barriers in interruptible code (lib/Interrupt/JournalBarriers.cpp). Each
; function reads the journal depth once. A store of at most one granule
; tests the journal's filter before calling in; a loop whose stores cover a
; range known before it (affine addresses, known trip count, every
; iteration) saves the whole range once, before the loop, and its body keeps
; no barrier; wider writes (the frame, when yielding) call in directly.
; RUN: %opt -load-pass-plugin=%plugin -passes='capsule' -S %s | FileCheck %s

; CHECK-LABEL: define internal i1 @scale.capsule.step(
; CHECK: %journal.live = icmp ne i32 %journal.depth, 0
; CHECK: loop.preheader:
; CHECK: %[[BYTES:.*]] = shl i64 %[[N:.*]], 3
; CHECK: br i1 %journal.live
; CHECK: call void @__capsule_journal_write(ptr %[[X:.*]], i64 %[[BYTES]])
; CHECK: loop:
; CHECK-NOT: __capsule_journal
; CHECK: store double %t, ptr %p
; CHECK: yield:
; CHECK: call void @__capsule_journal_write(ptr %frame, i64 32)

; CHECK-LABEL: define internal i1 @gather.capsule.step(
; CHECK: loop:
; CHECK: %p = getelementptr inbounds double
; CHECK-NEXT: br i1 %journal.live
; CHECK: %granule = and i64 %{{.*}}, -8
; CHECK: %[[INDEX:.*]] = lshr i64 %granule, 3
; CHECK: %filter.index = and i64 %[[INDEX]], 2047
; CHECK: %[[FILTER:.*]] = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_journal_filter)
; CHECK: %[[SLOT:.*]] = getelementptr i64, ptr %[[FILTER]], i64 %filter.index
; CHECK: %filter.granule = load i64, ptr %[[SLOT]], align 8
; CHECK: %saved.already = icmp eq i64 %filter.granule, %granule
; CHECK: call void @__capsule_journal_write(ptr %p, i64 8)
; CHECK: store double 1.000000e+00, ptr %p

; No barrier is left as a call of the pseudo-function.
; CHECK-NOT: __capsule_journal_barrier

declare i64 @__capsule_primops(ptr, ...)

; scale: a loop whose stores one barrier before the loop covers.
define void @scale(ptr %x, i64 %n, double %k) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %exit
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %t = fmul double %v, %k
  store double %t, ptr %p, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; gather: the store's address is not affine in the loop: tested per store.
define void @gather(ptr %x, ptr %idx, i64 %n) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %exit
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr inbounds i64, ptr %idx, i64 %i
  %j = load i64, ptr %q, align 8
  %p = getelementptr inbounds double, ptr %x, i64 %j
  store double 1.0, ptr %p, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @both(ptr %x, ptr %idx, i64 %n) {
  call void @scale(ptr %x, i64 %n, double 2.0)
  call void @gather(ptr %x, ptr %idx, i64 %n)
  ret void
}

define i64 @run(ptr %x, ptr %idx, i64 %n) {
  %steps = call i64 (ptr, ...) @__capsule_primops(ptr @both, ptr %x, ptr %idx, i64 %n)
  ret i64 %steps
}
