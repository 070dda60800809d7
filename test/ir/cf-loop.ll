; A loop: the loop block's record (acc, and the predecessor index since the
; header has two predecessors) is pushed inside the loop, once per iteration;
; the reverse loop pops one record per iteration and goes around again while
; the popped index says the block was entered through the back edge. The
; adjoint reaching acc's phi from the entry edge is x's. The counter may wrap
; (no nsw, an equality exit), so the reverse sweep cannot count it back to
; find the first iteration (test/ir/loop-counter.ll) and tapes the index.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ %x, %entry ], [ %acc.next, %loop ]
  %acc.next = fmul double %acc, %acc
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x, i32 %n) {
entry:
  %r = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x, i32 %n)
  ret double %r
}

; Predecessor 0 of the loop block is the back edge (the block the push split
; off), 1 is entry.
; CHECK-LABEL: define internal double @f.capsule.fwd.ocr(double %0, i32 %1)
; CHECK:       {{^}}loop:
; CHECK:         %pred.index = phi [[IT:i[0-9]+]] [ 0, %[[LATCH:tape.push.join[0-9]*]] ], [ 1, %entry ]
; CHECK:         %acc.next = fmul double %acc, %acc
; CHECK:         call ptr @__capsule_tape_push_slow(
; CHECK:       {{^}}[[LATCH]]:
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store double %acc, ptr [[AA:%[0-9]+]]
; CHECK-DAG:     [[AA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[AOFF:[0-9]+]]
; CHECK-DAG:     store [[IT]] %pred.index, ptr [[IA:%[0-9]+]]
; CHECK-DAG:     [[IA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[IOFF:[0-9]+]]
; CHECK:         br i1 %done, label %exit, label %loop
; CHECK:       {{^}}exit:
; CHECK:         ret double %acc.next

; CHECK-LABEL: define internal { double } @f.capsule.rev.ocr(double %0)
; CHECK:       {{^}}rev.loop:
; CHECK:         [[DN:%[^ ]+]] = phi double
; CHECK:         call ptr @__capsule_tape_pop_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[AA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[AOFF]]
; CHECK-DAG:     [[ACC:%[0-9]+]] = load double, ptr [[AA]]
; CHECK-DAG:     [[IA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[IOFF]]
; CHECK-DAG:     [[IDX:%[0-9]+]] = load [[IT]], ptr [[IA]]
; CHECK:         fmul double [[DN]], [[ACC]]
; CHECK:         fmul double [[DN]], [[ACC]]
; CHECK:         switch [[IT]] [[IDX]], label %[[EDGE1:rev.edge[0-9]*]] [
; CHECK-NEXT:      [[IT]] 0, label %[[EDGE0:rev.edge[0-9]*]]
; CHECK-NEXT:    ]
; CHECK:         [[DXN:%.*]] = fadd double [[DX:%.*]], 0.000000e+00
; CHECK-NEXT:    insertvalue { double } poison, double [[DXN]], 0
; CHECK:       {{^}}[[EDGE0]]:
; CHECK-NEXT:    fadd double
; CHECK-NEXT:    br label %rev.loop
; CHECK:       {{^}}[[EDGE1]]:
; CHECK-NEXT:    [[DX]] = fadd double
; CHECK-NEXT:    br label %rev.entry
