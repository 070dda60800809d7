; A checkpointed gradient call becomes: the root's frame, the argument and
; the shadow of the dup pointer stored in it (the shadow in the frame's
; pointer-shadow slot, two region spans above), the driver call with the
; checkpointed entry naming the forward and reverse sweeps of the root's step
; function and its untaped forward sweep, and the adjoint of the out argument read from the frame's
; adjoint slot (one span above). The step function is marked as checkpointed
; code and its forward sweep keeps pointer shadows beside runtime memory.
; RUN: %opt -load-pass-plugin=%plugin -passes='function(sroa),capsule' -S %s | FileCheck %s

; CHECK: @f.capsule.checkpointed = private constant { ptr, ptr, ptr, ptr, i32, i32 } { ptr @f.capsule.entry, ptr @f.capsule.step.capsule.fwd.d, ptr @f.capsule.step.capsule.rev.d, ptr @f.capsule.step.capsule.untaped.d, i32 2, i32 0 }

; CHECK-LABEL: define double @grad(
; CHECK: %frame = call ptr @__capsule_root_frame(ptr @f.capsule.entry)
; CHECK: %[[XSLOT:.*]] = getelementptr inbounds i8, ptr %frame, i64 16
; CHECK: store ptr %x, ptr %[[XSLOT]], align 8
; CHECK: %region.span = load i64, ptr @__capsule_region_span
; CHECK: %frame.adjoints = getelementptr i8, ptr %frame, i64 %region.span
; CHECK: %[[TWICE:.*]] = shl i64 %region.span, 1
; CHECK: %frame.shadows = getelementptr i8, ptr %frame, i64 %[[TWICE]]
; CHECK: %[[XSHADOW:.*]] = getelementptr inbounds i8, ptr %frame.shadows, i64 16
; CHECK: store ptr %dx, ptr %[[XSHADOW]], align 8
; CHECK: call void @__capsule_run_checkpointed(ptr @f.capsule.checkpointed, ptr %frame)
; CHECK: %[[KADJOINT:.*]] = getelementptr inbounds i8, ptr %frame.adjoints, i64 24
; CHECK: load double, ptr %[[KADJOINT]]

; CHECK: define internal i1 @f.capsule.step({{.*}} #[[STEPATTRS:[0-9]+]]
; CHECK: define internal i1 @f.capsule.step.capsule.fwd.d(ptr %0, ptr %"frame'")
; CHECK: pointer.shadow.slot
; CHECK: __capsule_tape_push_slow
; The untaped sweep records nothing.
; CHECK: define internal i1 @f.capsule.step.capsule.untaped.d(ptr %0, ptr %"frame'")
; CHECK-NOT: __capsule_tape
; CHECK: ret i1
; CHECK: attributes #[[STEPATTRS]] = {{.*}}"capsule-checkpointed"

define double @f(ptr %x, double %k, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p
  %t = fmul double %v, %k
  %s.next = fadd double %s, %t
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

@capsule_dup = external global i32
@capsule_out = external global i32
@capsule_const = external global i32
declare double @__capsule_autodiff_checkpointed(ptr, ...)

define double @grad(ptr %x, ptr %dx, double %k, i64 %n) {
entry:
  %dup = load i32, ptr @capsule_dup
  %out = load i32, ptr @capsule_out
  %const = load i32, ptr @capsule_const
  %d = call double (ptr, ...) @__capsule_autodiff_checkpointed(ptr @f, i32 %dup, ptr %x, ptr %dx, i32 %out, double %k, i32 %const, i64 %n)
  ret double %d
}
