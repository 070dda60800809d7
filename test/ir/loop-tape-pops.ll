; One check per reverse loop (Reverse/LoopTapeReservation.cpp): a reverse
; sweep's inline pop in a counted loop, as keepTapeInRegisters and the
; simplification pipeline leave it (the tape's top and chunk begin in header
; phis), gets the loop versioned on whether the chunk holds all n·16 bytes
; of its records (n = %n iterations, counting down): if it does, a copy of
; the loop pops them without the check; if not, the loop as it was, which
; crosses chunks through the slow path. The top after the loop comes from
; whichever version ran. Pops the rewrite must leave alone keep their
; checks and are not versioned: a loop that calls a function which may use
; the tape, and a loop whose trip count is not known on entry. The check's
; operands may come in either order.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule-loop-tape -S %s | FileCheck %s

@__capsule_tape = external thread_local(initialexec) global [4 x ptr]

declare ptr @__capsule_tape_pop_slow(i64)
declare void @unknown()

; CHECK-LABEL: define void @reverse_counted(
; CHECK:       loop.preheader:
; CHECK-NEXT:    [[BYTES:%.*]] = shl i64 %n, 4
; CHECK-NEXT:    [[TOP:%.*]] = ptrtoint ptr %top0 to i64
; CHECK-NEXT:    [[BEGIN:%.*]] = ptrtoint ptr %begin0 to i64
; CHECK-NEXT:    [[ROOM:%.*]] = sub i64 [[TOP]], [[BEGIN]]
; CHECK-NEXT:    %tape.loop.short = icmp ult i64 [[ROOM]], [[BYTES]]
; CHECK-NEXT:    br i1 %tape.loop.short, label %loop.preheader.versioned, label %loop.preheader.versioned.tape.reserved, !prof
; CHECK:       loop.tape.reserved:
; CHECK-NEXT:    %top.tape.reserved = phi ptr [ %top.down.tape.reserved, %loop.tape.reserved ], [ %top0, %loop.preheader.versioned.tape.reserved ]
; CHECK-NOT:     __capsule_tape_pop_slow
; CHECK:         %top.down.tape.reserved = getelementptr inbounds i8, ptr %top.tape.reserved, i64 -16
; CHECK-NEXT:    %a.tape.reserved = load double, ptr %top.down.tape.reserved, align 1
; CHECK:         br i1 %done.tape.reserved, label %exit.loopexit, label %loop.tape.reserved
; CHECK:       loop:
; CHECK:         br i1 %empty, label %slow, label %fast
; CHECK:       slow:
; CHECK-NEXT:    store ptr %top, ptr %tape, align 8
; CHECK-NEXT:    %rec.slow = call ptr @__capsule_tape_pop_slow(i64 16)
; CHECK:       exit.loopexit:
; CHECK-NEXT:    %top.next.lcssa = phi ptr [ %top.next, %join ], [ %top.down.tape.reserved, %loop.tape.reserved ]
define void @reverse_counted(i64 %n, ptr %dx) {
entry:
  %tape = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_tape)
  %top0 = load ptr, ptr %tape, align 8
  %begin.addr = getelementptr inbounds i8, ptr %tape, i64 16
  %begin0 = load ptr, ptr %begin.addr, align 8
  %enter = icmp sgt i64 %n, 0
  br i1 %enter, label %loop, label %exit

loop:
  %top = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  %begin = phi ptr [ %begin0, %entry ], [ %begin.next, %join ]
  %i = phi i64 [ %n, %entry ], [ %i.next, %join ]
  %empty = icmp eq ptr %top, %begin
  br i1 %empty, label %slow, label %fast, !capsule.tape.pop !0

slow:
  store ptr %top, ptr %tape, align 8
  %rec.slow = call ptr @__capsule_tape_pop_slow(i64 16)
  %top.slow = load ptr, ptr %tape, align 8
  %begin.slow = load ptr, ptr %begin.addr, align 8
  br label %join

fast:
  %top.down = getelementptr inbounds i8, ptr %top, i64 -16
  br label %join

join:
  %begin.next = phi ptr [ %begin.slow, %slow ], [ %begin, %fast ]
  %top.next = phi ptr [ %top.slow, %slow ], [ %top.down, %fast ]
  %rec = phi ptr [ %rec.slow, %slow ], [ %top.down, %fast ]
  %a = load double, ptr %rec, align 1
  %b.addr = getelementptr inbounds i8, ptr %rec, i64 8
  %b = load double, ptr %b.addr, align 1
  %j = add nsw i64 %i, -1
  %p = getelementptr inbounds double, ptr %dx, i64 %j
  %old = load double, ptr %p, align 8
  %m = fmul double %a, %b
  %new = fadd double %old, %m
  store double %new, ptr %p, align 8
  %i.next = add nsw i64 %i, -1
  %done = icmp eq i64 %i.next, 0
  br i1 %done, label %exit, label %loop

exit:
  %top.out = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  store ptr %top.out, ptr %tape, align 8
  ret void
}


; CHECK-LABEL: define void @calls_unknown(
; CHECK-NOT:     tape.reserved
; CHECK:         call void @unknown()
; CHECK:         br i1 %empty, label %slow, label %fast
; CHECK-NOT:     tape.reserved
; CHECK-LABEL: define void @until_zero(
define void @calls_unknown(i64 %n, ptr %dx) {
entry:
  %tape = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_tape)
  %top0 = load ptr, ptr %tape, align 8
  %begin.addr = getelementptr inbounds i8, ptr %tape, i64 16
  %begin0 = load ptr, ptr %begin.addr, align 8
  %enter = icmp sgt i64 %n, 0
  br i1 %enter, label %loop, label %exit

loop:
  %top = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  %begin = phi ptr [ %begin0, %entry ], [ %begin.next, %join ]
  %i = phi i64 [ %n, %entry ], [ %i.next, %join ]
  call void @unknown()
  %empty = icmp eq ptr %top, %begin
  br i1 %empty, label %slow, label %fast, !capsule.tape.pop !0

slow:
  store ptr %top, ptr %tape, align 8
  %rec.slow = call ptr @__capsule_tape_pop_slow(i64 16)
  %top.slow = load ptr, ptr %tape, align 8
  %begin.slow = load ptr, ptr %begin.addr, align 8
  br label %join

fast:
  %top.down = getelementptr inbounds i8, ptr %top, i64 -16
  br label %join

join:
  %begin.next = phi ptr [ %begin.slow, %slow ], [ %begin, %fast ]
  %top.next = phi ptr [ %top.slow, %slow ], [ %top.down, %fast ]
  %rec = phi ptr [ %rec.slow, %slow ], [ %top.down, %fast ]
  %a = load double, ptr %rec, align 1
  %b.addr = getelementptr inbounds i8, ptr %rec, i64 8
  %b = load double, ptr %b.addr, align 1
  %j = add nsw i64 %i, -1
  %p = getelementptr inbounds double, ptr %dx, i64 %j
  %old = load double, ptr %p, align 8
  %m = fmul double %a, %b
  %new = fadd double %old, %m
  store double %new, ptr %p, align 8
  %i.next = add nsw i64 %i, -1
  %done = icmp eq i64 %i.next, 0
  br i1 %done, label %exit, label %loop

exit:
  %top.out = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  store ptr %top.out, ptr %tape, align 8
  ret void
}


; A loop that runs until an adjoint is zero: no trip count on entry.
; CHECK-NOT:     tape.reserved
; CHECK:         br i1 %empty, label %slow, label %fast
; CHECK-NOT:     tape.reserved
define void @until_zero(i64 %n, ptr %dx) {
entry:
  %tape = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_tape)
  %top0 = load ptr, ptr %tape, align 8
  %begin.addr = getelementptr inbounds i8, ptr %tape, i64 16
  %begin0 = load ptr, ptr %begin.addr, align 8
  %enter = icmp sgt i64 %n, 0
  br i1 %enter, label %loop, label %exit

loop:
  %top = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  %begin = phi ptr [ %begin0, %entry ], [ %begin.next, %join ]
  %i = phi i64 [ %n, %entry ], [ %i.next, %join ]
  %empty = icmp eq ptr %top, %begin
  br i1 %empty, label %slow, label %fast, !capsule.tape.pop !0

slow:
  store ptr %top, ptr %tape, align 8
  %rec.slow = call ptr @__capsule_tape_pop_slow(i64 16)
  %top.slow = load ptr, ptr %tape, align 8
  %begin.slow = load ptr, ptr %begin.addr, align 8
  br label %join

fast:
  %top.down = getelementptr inbounds i8, ptr %top, i64 -16
  br label %join

join:
  %begin.next = phi ptr [ %begin.slow, %slow ], [ %begin, %fast ]
  %top.next = phi ptr [ %top.slow, %slow ], [ %top.down, %fast ]
  %rec = phi ptr [ %rec.slow, %slow ], [ %top.down, %fast ]
  %a = load double, ptr %rec, align 1
  %b.addr = getelementptr inbounds i8, ptr %rec, i64 8
  %b = load double, ptr %b.addr, align 1
  %j = add nsw i64 %i, -1
  %p = getelementptr inbounds double, ptr %dx, i64 %j
  %old = load double, ptr %p, align 8
  %m = fmul double %a, %b
  %new = fadd double %old, %m
  store double %new, ptr %p, align 8
  %i.next = add nsw i64 %i, -1
  %done = fcmp oeq double %new, 0.0
  br i1 %done, label %exit, label %loop

exit:
  %top.out = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  store ptr %top.out, ptr %tape, align 8
  ret void
}

; The check's operands swapped, as the optimizer may leave an equality.
; CHECK-LABEL: define void @swapped(
; CHECK:         %tape.loop.short = icmp ult i64
; CHECK:       loop.tape.reserved:
; CHECK-NOT:     __capsule_tape_pop_slow
; CHECK:         %top.down.tape.reserved = getelementptr inbounds i8, ptr %top.tape.reserved, i64 -16
define void @swapped(i64 %n, ptr %dx) {
entry:
  %tape = call ptr @llvm.threadlocal.address.p0(ptr @__capsule_tape)
  %top0 = load ptr, ptr %tape, align 8
  %begin.addr = getelementptr inbounds i8, ptr %tape, i64 16
  %begin0 = load ptr, ptr %begin.addr, align 8
  %enter = icmp sgt i64 %n, 0
  br i1 %enter, label %loop, label %exit

loop:
  %top = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  %begin = phi ptr [ %begin0, %entry ], [ %begin.next, %join ]
  %i = phi i64 [ %n, %entry ], [ %i.next, %join ]
  %empty = icmp eq ptr %begin, %top
  br i1 %empty, label %slow, label %fast, !capsule.tape.pop !0

slow:
  store ptr %top, ptr %tape, align 8
  %rec.slow = call ptr @__capsule_tape_pop_slow(i64 16)
  %top.slow = load ptr, ptr %tape, align 8
  %begin.slow = load ptr, ptr %begin.addr, align 8
  br label %join

fast:
  %top.down = getelementptr inbounds i8, ptr %top, i64 -16
  br label %join

join:
  %begin.next = phi ptr [ %begin.slow, %slow ], [ %begin, %fast ]
  %top.next = phi ptr [ %top.slow, %slow ], [ %top.down, %fast ]
  %rec = phi ptr [ %rec.slow, %slow ], [ %top.down, %fast ]
  %a = load double, ptr %rec, align 1
  %b.addr = getelementptr inbounds i8, ptr %rec, i64 8
  %b = load double, ptr %b.addr, align 1
  %j = add nsw i64 %i, -1
  %p = getelementptr inbounds double, ptr %dx, i64 %j
  %old = load double, ptr %p, align 8
  %m = fmul double %a, %b
  %new = fadd double %old, %m
  store double %new, ptr %p, align 8
  %i.next = add nsw i64 %i, -1
  %done = icmp eq i64 %i.next, 0
  br i1 %done, label %exit, label %loop

exit:
  %top.out = phi ptr [ %top0, %entry ], [ %top.next, %join ]
  store ptr %top.out, ptr %tape, align 8
  ret void
}

declare ptr @llvm.threadlocal.address.p0(ptr)

!0 = !{i64 16}
