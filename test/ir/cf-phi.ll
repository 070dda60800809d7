; A block with two predecessors: the forward sweep records which one it was
; entered from (a phi of small integer predecessor indices, pushed in the block's
; record) and the reverse sweep pops the index and switches on it, handing
; the adjoint of each phi to the value incoming from that predecessor. Blocks
; with one predecessor push no index (here a and b push nothing at all).
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %ya = fadd double %x, 1.0
  br label %join
b:
  %yb = fmul double %x, 3.0
  br label %join
join:
  %y = phi double [ %ya, %a ], [ %yb, %b ]
  ret double %y
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x, i1 %c) {
entry:
  %r = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x, i1 %c)
  ret double %r
}

; CHECK-LABEL: define internal double @f.capsule.fwd.ocr(double %0, i1 %1)
; CHECK:       {{^}}a:
; CHECK-NEXT:    %ya = fadd double %0, 1.000000e+00
; CHECK-NEXT:    br label %join
; CHECK:       {{^}}b:
; CHECK-NEXT:    %yb = fmul double %0, 3.000000e+00
; CHECK-NEXT:    br label %join
; CHECK:       {{^}}join:
; CHECK-NEXT:    %pred.index = phi [[IT:i[0-9]+]] [ 0, %b ], [ 1, %a ]
; CHECK-NEXT:    %y = phi double
; CHECK:         call ptr @__capsule_tape_push_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-NEXT:    [[A:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 [[IOFF:[0-9]+]]
; CHECK-NEXT:    store [[IT]] %pred.index, ptr [[A]]
; CHECK:         ret double %y

; Predecessor 0 is b (d * 3 flows to x), 1 is a (d flows to x unchanged).
; CHECK-LABEL: define internal { double } @f.capsule.rev.ocr(double %0)
; CHECK:       {{^}}rev.a:
; CHECK-NEXT:    fadd double -0.000000e+00, [[DYA:%[0-9]+]]
; CHECK-NEXT:    br label %rev.entry
; CHECK:       {{^}}rev.b:
; CHECK-NEXT:    [[M:%.*]] = fmul double [[DYB:%[0-9]+]], 3.000000e+00
; CHECK-NEXT:    fadd double -0.000000e+00, [[M]]
; CHECK-NEXT:    br label %rev.entry
; CHECK:       {{^}}rev.join:
; CHECK:         call ptr @__capsule_tape_pop_slow(
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-NEXT:    [[A:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 [[IOFF]]
; CHECK-NEXT:    [[IDX:%.*]] = load [[IT]], ptr [[A]]
; CHECK-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, %0
; CHECK-NEXT:    switch [[IT]] [[IDX]], label %[[EDGE1:rev.edge[0-9]*]] [
; CHECK-NEXT:      [[IT]] 0, label %[[EDGE0:rev.edge[0-9]*]]
; CHECK-NEXT:    ]
; CHECK:       {{^}}[[EDGE0]]:
; CHECK-NEXT:    [[DYB]] = fadd double -0.000000e+00, [[DY]]
; CHECK-NEXT:    br label %rev.b
; CHECK:       {{^}}[[EDGE1]]:
; CHECK-NEXT:    [[DYA]] = fadd double -0.000000e+00, [[DY]]
; CHECK-NEXT:    br label %rev.a
