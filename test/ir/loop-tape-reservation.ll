; One tape reservation per loop (Reverse/LoopTapeReservation.cpp): a
; forward sweep's inline push in a counted loop, as keepTapeInRegisters and
; the simplification pipeline leave it (the tape's top and end in header
; phis), becomes one push of all the loop's records in the preheader, n·8
; bytes for n = %n - 1 iterations, through the same slow path with the size
; changed; the loop's top starts at the reservation and its check is gone.
; A loop not rotated yet pushes in its body after the exit test, once per
; back edge taken. Pushes the rewrite must leave alone keep their checks:
; a loop that calls a function which may use the tape, and a loop whose
; trip count is not known on entry.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule-loop-tape -S %s | FileCheck %s

@__capsule_tape = external thread_local(initialexec) global [4 x ptr]

declare ptr @__capsule_tape_push_slow(i64)
declare void @unknown()

; CHECK-LABEL: define void @counted(
; CHECK:       loop.preheader:
; CHECK-NEXT:    [[N8:%.*]] = shl i64 %n, 3
; CHECK-NEXT:    [[BYTES:%.*]] = add i64 [[N8]], -8
; CHECK:         [[ROOM:%.*]] = sub i64
; CHECK-NEXT:    [[FULL:%.*]] = icmp slt i64 [[ROOM]], [[BYTES]]
; CHECK-NEXT:    br i1 [[FULL]], label %[[SLOW:[0-9]+]], label %[[TAIL:[0-9]+]], !prof
; CHECK:       [[SLOW]]:
; CHECK-NEXT:    store ptr %top0, ptr %tape, align 8
; CHECK-NEXT:    [[RES:%.*]] = call ptr @__capsule_tape_push_slow(i64 [[BYTES]])
; CHECK:       [[TAIL]]:
; CHECK-NEXT:    [[BASE:%.*]] = phi ptr [ [[RES]], %[[SLOW]] ], [ %top0, %loop.preheader ]
; CHECK:       loop:
; CHECK-NEXT:    %top = phi ptr [ %top.bumped, %loop ], [ [[BASE]], %[[TAIL]] ]
; CHECK-NOT:     __capsule_tape_push_slow
; CHECK:         %top.bumped = getelementptr inbounds i8, ptr %top, i64 8
; CHECK-NEXT:    store double %v, ptr %top, align 1
; CHECK-NEXT:    br i1 %done, label %exit, label %loop
; CHECK:       exit:
; CHECK-NEXT:    %top.out = phi ptr [ %top0, %entry ], [ %top.bumped, %loop ]
define void @counted(i64 %n, ptr %x) {
entry:
  %tape = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_tape)
  %top0 = load ptr, ptr %tape, align 8
  %end.addr = getelementptr inbounds i8, ptr %tape, i64 8
  %end0 = load ptr, ptr %end.addr, align 8
  %enter = icmp sgt i64 %n, 1
  br i1 %enter, label %loop, label %exit

loop:
  %top = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  %end = phi ptr [ %end0, %entry ], [ %end.next, %join ]
  %i = phi i64 [ 1, %entry ], [ %i.next, %join ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  %e = ptrtoint ptr %end to i64
  %t = ptrtoint ptr %top to i64
  %room = sub i64 %e, %t
  %full = icmp slt i64 %room, 8
  br i1 %full, label %slow, label %fast, !capsule.tape.push !0

slow:
  store ptr %top, ptr %tape, align 8
  %rec.slow = call ptr @__capsule_tape_push_slow(i64 8)
  %top.slow = load ptr, ptr %tape, align 8
  %end.slow = load ptr, ptr %end.addr, align 8
  br label %join

fast:
  %top.bumped = getelementptr inbounds i8, ptr %top, i64 8
  br label %join

join:
  %end.next = phi ptr [ %end.slow, %slow ], [ %end, %fast ]
  %top.next = phi ptr [ %top.slow, %slow ], [ %top.bumped, %fast ]
  %rec = phi ptr [ %rec.slow, %slow ], [ %top, %fast ]
  store double %v, ptr %rec, align 1
  br i1 %done, label %exit, label %loop

exit:
  %top.out = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  store ptr %top.out, ptr %tape, align 8
  ret void
}

; CHECK-LABEL: define void @calls_unknown(
; CHECK:       loop:
; CHECK:         call void @unknown()
; CHECK:         br i1 %full, label %slow, label %fast
; CHECK:       slow:
; CHECK-NEXT:    store ptr %top, ptr %tape, align 8
; CHECK-NEXT:    call ptr @__capsule_tape_push_slow(i64 8)
define void @calls_unknown(i64 %n, ptr %x) {
entry:
  %tape = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_tape)
  %top0 = load ptr, ptr %tape, align 8
  %end.addr = getelementptr inbounds i8, ptr %tape, i64 8
  %end0 = load ptr, ptr %end.addr, align 8
  %enter = icmp sgt i64 %n, 1
  br i1 %enter, label %loop, label %exit

loop:
  %top = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  %end = phi ptr [ %end0, %entry ], [ %end.next, %join ]
  %i = phi i64 [ 1, %entry ], [ %i.next, %join ]
  call void @unknown()
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  %e = ptrtoint ptr %end to i64
  %t = ptrtoint ptr %top to i64
  %room = sub i64 %e, %t
  %full = icmp slt i64 %room, 8
  br i1 %full, label %slow, label %fast, !capsule.tape.push !0

slow:
  store ptr %top, ptr %tape, align 8
  %rec.slow = call ptr @__capsule_tape_push_slow(i64 8)
  %top.slow = load ptr, ptr %tape, align 8
  %end.slow = load ptr, ptr %end.addr, align 8
  br label %join

fast:
  %top.bumped = getelementptr inbounds i8, ptr %top, i64 8
  br label %join

join:
  %end.next = phi ptr [ %end.slow, %slow ], [ %end, %fast ]
  %top.next = phi ptr [ %top.slow, %slow ], [ %top.bumped, %fast ]
  %rec = phi ptr [ %rec.slow, %slow ], [ %top, %fast ]
  store double %v, ptr %rec, align 1
  br i1 %done, label %exit, label %loop

exit:
  %top.out = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  store ptr %top.out, ptr %tape, align 8
  ret void
}

; A loop that runs until it finds a zero: no trip count on entry.
; CHECK-LABEL: define void @until_zero(
; CHECK:       loop:
; CHECK:         br i1 %full, label %slow, label %fast
; CHECK:       slow:
; CHECK:         call ptr @__capsule_tape_push_slow(i64 8)
define void @until_zero(ptr %x) {
entry:
  %tape = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_tape)
  %top0 = load ptr, ptr %tape, align 8
  %end.addr = getelementptr inbounds i8, ptr %tape, i64 8
  %end0 = load ptr, ptr %end.addr, align 8
  br label %loop

loop:
  %top = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  %end = phi ptr [ %end0, %entry ], [ %end.next, %join ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %join ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = fcmp oeq double %v, 0.0
  %e = ptrtoint ptr %end to i64
  %t = ptrtoint ptr %top to i64
  %room = sub i64 %e, %t
  %full = icmp slt i64 %room, 8
  br i1 %full, label %slow, label %fast, !capsule.tape.push !0

slow:
  store ptr %top, ptr %tape, align 8
  %rec.slow = call ptr @__capsule_tape_push_slow(i64 8)
  %top.slow = load ptr, ptr %tape, align 8
  %end.slow = load ptr, ptr %end.addr, align 8
  br label %join

fast:
  %top.bumped = getelementptr inbounds i8, ptr %top, i64 8
  br label %join

join:
  %end.next = phi ptr [ %end.slow, %slow ], [ %end, %fast ]
  %top.next = phi ptr [ %top.slow, %slow ], [ %top.bumped, %fast ]
  %rec = phi ptr [ %rec.slow, %slow ], [ %top, %fast ]
  store double %v, ptr %rec, align 1
  br i1 %done, label %exit, label %loop

exit:
  store ptr %top.next, ptr %tape, align 8
  ret void
}

; Not rotated yet (the vectorizer's pipeline rotates loops after this
; pass): the exit test in the header, the push in the body after it, which
; runs once per back edge taken, n = max(%n, 0) times, not n + 1.
; CHECK-LABEL: define void @unrotated(
; CHECK:         [[N:%.*]] = call i64 @llvm.smax.i64(i64 %n, i64 0)
; CHECK-NEXT:    [[BYTES:%.*]] = shl i64 [[N]], 3
; CHECK:         call ptr @__capsule_tape_push_slow(i64 [[BYTES]])
; CHECK:       body:
; CHECK-NOT:     __capsule_tape_push_slow
; CHECK:         store double %v, ptr %top, align 1
define void @unrotated(i64 %n, ptr %x) {
entry:
  %tape = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_tape)
  %top0 = load ptr, ptr %tape, align 8
  %end.addr = getelementptr inbounds i8, ptr %tape, i64 8
  %end0 = load ptr, ptr %end.addr, align 8
  br label %header

header:
  %top = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  %end = phi ptr [ %end0, %entry ], [ %end.next, %join ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %join ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit

body:
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %i.next = add nuw nsw i64 %i, 1
  %e = ptrtoint ptr %end to i64
  %t = ptrtoint ptr %top to i64
  %room = sub i64 %e, %t
  %full = icmp slt i64 %room, 8
  br i1 %full, label %slow, label %fast, !capsule.tape.push !0

slow:
  store ptr %top, ptr %tape, align 8
  %rec.slow = call ptr @__capsule_tape_push_slow(i64 8)
  %top.slow = load ptr, ptr %tape, align 8
  %end.slow = load ptr, ptr %end.addr, align 8
  br label %join

fast:
  %top.bumped = getelementptr inbounds i8, ptr %top, i64 8
  br label %join

join:
  %end.next = phi ptr [ %end.slow, %slow ], [ %end, %fast ]
  %top.next = phi ptr [ %top.slow, %slow ], [ %top.bumped, %fast ]
  %rec = phi ptr [ %rec.slow, %slow ], [ %top, %fast ]
  store double %v, ptr %rec, align 1
  br label %header

exit:
  store ptr %top, ptr %tape, align 8
  ret void
}

declare ptr @llvm.threadlocal.address.p0(ptr)

!0 = !{i64 8}
