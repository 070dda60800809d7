; Vectorizing reverse sweeps (Reverse/ReverseVectorization.cpp): a tagged
; reverse sweep ("capsule-reverse-sweep") keeps noimplicitfloat, which stops
; both vectorizers, unless it has loops and none of them updates
; neighbouring elements of one object or stores where scalar evolution
; cannot follow the address. A function that is not tagged keeps the
; attribute its author gave it.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule-reverse-vectorization -S %s | FileCheck %s

; CHECK: define void @elementwise(ptr %dx, ptr %dy, i64 %n) #[[LIFTED:[0-9]+]]
; CHECK: define void @stencil(ptr %dx, ptr %dy, i64 %n) #[[KEPT:[0-9]+]]
; CHECK: define void @scatter(ptr %dx, ptr %idx, i64 %n) #[[KEPT]]
; CHECK: define void @straight(ptr %dx) #[[KEPT]]
; CHECK: define void @outer_neighbours(ptr %dx, i64 %n) #[[KEPT]]
; CHECK: define void @far_apart(ptr %dx, i64 %n) #[[LIFTED]]
; CHECK: define void @untagged(ptr %dx, ptr %dy, i64 %n) #[[USER:[0-9]+]]
; CHECK: attributes #[[LIFTED]] = { "capsule-reverse-sweep" }
; CHECK: attributes #[[KEPT]] = { noimplicitfloat "capsule-reverse-sweep" }
; CHECK: attributes #[[USER]] = { noimplicitfloat }

; dx[i] += dy[i]; dy[i] = 0: each object at one offset.
define void @elementwise(ptr %dx, ptr %dy, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds double, ptr %dx, i64 %i
  %py = getelementptr inbounds double, ptr %dy, i64 %i
  %x = load double, ptr %px
  %y = load double, ptr %py
  %s = fadd double %x, %y
  store double %s, ptr %px
  store double 0.0, ptr %py
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The adjoint of y[i] = x[i-1] + x[i]: dx[i-1] and dx[i] both updated.
define void @stencil(ptr %dx, ptr %dy, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %im1 = add nsw i64 %i, -1
  %pa = getelementptr inbounds double, ptr %dx, i64 %im1
  %pb = getelementptr inbounds double, ptr %dx, i64 %i
  %py = getelementptr inbounds double, ptr %dy, i64 %i
  %y = load double, ptr %py
  %a = load double, ptr %pa
  %a2 = fadd double %a, %y
  store double %a2, ptr %pa
  %b = load double, ptr %pb
  %b2 = fadd double %b, %y
  store double %b2, ptr %pb
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; dx[idx[i]] += 1: where the store goes is not known.
define void @scatter(ptr %dx, ptr %idx, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds i64, ptr %idx, i64 %i
  %k = load i64, ptr %pi
  %px = getelementptr inbounds double, ptr %dx, i64 %k
  %x = load double, ptr %px
  %x2 = fadd double %x, 1.0
  store double %x2, ptr %px
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; No loop: only the SLP vectorizer would act, and it is kept out.
define void @straight(ptr %dx) #0 {
entry:
  %p1 = getelementptr inbounds double, ptr %dx, i64 1
  %a = load double, ptr %dx
  %b = load double, ptr %p1
  %a2 = fadd double %a, 1.0
  %b2 = fadd double %b, 2.0
  store double %a2, ptr %dx
  store double %b2, ptr %p1
  ret void
}

; The inner loop is clean; the outer loop's own block updates dx[r] and
; dx[r+1].
define void @outer_neighbours(ptr %dx, i64 %n) #0 {
entry:
  br label %outer
outer:
  %r = phi i64 [ 0, %entry ], [ %r.next, %outer.latch ]
  %row = mul nsw i64 %r, %n
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %at = add nsw i64 %row, %j
  %pj = getelementptr inbounds double, ptr %dx, i64 %at
  store double 0.0, ptr %pj
  %j.next = add nuw nsw i64 %j, 1
  %inner.done = icmp eq i64 %j.next, %n
  br i1 %inner.done, label %outer.latch, label %inner
outer.latch:
  %pr = getelementptr inbounds double, ptr %dx, i64 %r
  %r1 = add nsw i64 %r, 1
  %pr1 = getelementptr inbounds double, ptr %dx, i64 %r1
  store double 1.0, ptr %pr
  store double 2.0, ptr %pr1
  %r.next = add nuw nsw i64 %r, 1
  %done = icmp eq i64 %r.next, %n
  br i1 %done, label %exit, label %outer
exit:
  ret void
}

; dx[i] and dx[i+64]: 512 bytes apart, not neighbours.
define void @far_apart(ptr %dx, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %far = add nsw i64 %i, 64
  %pa = getelementptr inbounds double, ptr %dx, i64 %i
  %pb = getelementptr inbounds double, ptr %dx, i64 %far
  %b = load double, ptr %pb
  store double %b, ptr %pa
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The elementwise loop again, with the user's own noimplicitfloat.
define void @untagged(ptr %dx, ptr %dy, i64 %n) #1 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds double, ptr %dx, i64 %i
  %py = getelementptr inbounds double, ptr %dy, i64 %i
  %y = load double, ptr %py
  store double %y, ptr %px
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

attributes #0 = { noimplicitfloat "capsule-reverse-sweep" }
attributes #1 = { noimplicitfloat }
