; A block malloc'd in f whose address never leaves f: the forward sweep
; postpones its free() to the end of the gradient call (__capsule_defer_free),
; so the loop's load of it is reloaded by the reverse sweep instead of taped.
; A block whose address escapes (stored to @g) is freed where f frees it, and
; its load is taped.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

@g = global ptr null

declare noalias ptr @malloc(i64)
declare void @free(ptr allocptr nocapture)

define double @f(ptr %x, i64 %n) {
entry:
  %w = call ptr @malloc(i64 8)
  %x0 = load double, ptr %x
  store double %x0, ptr %w
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %v = load double, ptr %w
  %vv = fmul double %v, %v
  %s.next = fadd double %s, %vv
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  call void @free(ptr %w)
  %e = call ptr @malloc(i64 8)
  store ptr %e, ptr @g
  store double %s.next, ptr %e
  %ev = load double, ptr %e
  %r = fmul double %ev, %ev
  call void @free(ptr %e)
  ret double %r
}

declare void @__capsule_autodiff(ptr, ...)

define void @grad(ptr %x, ptr %dx, i64 %n) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define internal double @f.capsule.fwd.
; CHECK:       {{^}}loop:
; CHECK-NOT:     __capsule_tape_push_slow
; CHECK:         br i1 %done, label %exit, label %loop
; CHECK:       {{^}}exit:
; CHECK:         call void @__capsule_defer_free(ptr %w)
; CHECK:         %ev = load double, ptr %e
; CHECK:         call void @free(ptr %e)
; CHECK:         store double %ev, ptr

; The reverse loop reloads %w's value.
; CHECK-LABEL: define internal {} @f.capsule.rev.
; CHECK:       {{^}}rev.loop:
; CHECK-NOT:     __capsule_tape_pop_slow
; CHECK:         load double, ptr [[W:%[0-9a-z.]+]]
; CHECK:         fmul double
