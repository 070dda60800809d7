; Loop counters are not taped per iteration: the reverse sweep runs them
; backwards. The final value is pushed once, at the loop's exit; stepping back
; over the back edge subtracts the step, and the reverse loop leaves through
; the preheader's edge when the counter equals its start value. Scalar
; evolution finds the counters, including one whose next value is computed
; from a sibling (%k1 = k + 1, stepped as k + 3, the shape instcombine leaves
; for `x[k + 1]` in `for (k = 0; k + 1 < n; k += 2)`). A counter that differs
; from another by a constant is recomputed from it, so the reverse sweep's
; addresses share one index and alias analysis can tell them apart.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %k1 = phi i64 [ 1, %entry ], [ %k3, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %pa = getelementptr inbounds double, ptr %x, i64 %k
  %a = load double, ptr %pa
  %pb = getelementptr inbounds double, ptr %x, i64 %k1
  %b = load double, ptr %pb
  %ab = fmul double %a, %b
  %acc.next = fadd double %acc, %ab
  %k.next = add nuw nsw i64 %k, 2
  %k3 = add nuw nsw i64 %k, 3
  %more = icmp slt i64 %k3, %n
  br i1 %more, label %loop, label %exit
exit:
  ret double %acc.next
}

declare void @__capsule_autodiff(ptr, ...)

define void @grad(ptr %x, ptr %dx, i64 %n) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret void
}

; The loads are reloaded (nothing writes x), the counters recomputed: the
; loop pushes nothing; its exit pushes the counters' last values (and the
; pointers the reverse loop needs). %k1 is not taped at all.
; CHECK-LABEL: define internal double @f.capsule.fwd.
; CHECK:       {{^}}loop:
; CHECK-NOT:     __capsule_tape_push_slow
; CHECK:         br i1 %more, label %loop, label %exit
; CHECK:       {{^}}exit:
; CHECK:         call ptr @__capsule_tape_push_slow(
; CHECK-NOT:     store i64 %k1,
; CHECK:         store i64 %k, ptr
; CHECK-NOT:     store i64 %k1,
; CHECK:         ret double

; The reverse loop pops nothing; %k steps back by 2 on the back edge, %k1 is
; %k + 1, and %k == 0 selects the edge to the entry block.
; CHECK-LABEL: define internal {} @f.capsule.rev.
; CHECK:       {{^}}rev.loop:
; CHECK-NEXT:    [[K:%k.cache[0-9.]*]] = phi i64
; CHECK-NOT:     __capsule_tape_pop_slow
; CHECK:         [[K1:%k1]] = add i64 [[K]], 1
; CHECK-NOT:     __capsule_tape_pop_slow
; CHECK:         getelementptr inbounds double, ptr %{{.*}}, i64 [[K]]
; CHECK:         getelementptr inbounds double, ptr %{{.*}}, i64 [[K1]]
; CHECK:         [[FIRST:%.*]] = icmp eq i64 [[K]], 0
; CHECK:         select i1 [[FIRST]]
; CHECK:       {{^}}rev.edge:
; CHECK-NOT:     sub i64 [[K1]]
; CHECK:         sub i64 [[K]], 2
; CHECK-NEXT:    br label %rev.loop
