; A stack array whose address escapes (passed to a callee) cannot be
; promoted to registers, so it gets a shadow. The reverse sweep runs after
; the frame is gone, so the shadow lives on the shadow heap: the forward
; sweep allocates it (__capsule_shadow_alloc with the array's size) right
; after the alloca, and the reverse sweep frees it (__capsule_shadow_free)
; once it has passed back over the alloca, after the callee's reverse sweep.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x) {
entry:
  %a = alloca [4 x double], align 16
  call void @fill(ptr %a, double %x)
  %v = load double, ptr %a, align 16
  ret double %v
}

define void @fill(ptr %p, double %x) {
entry:
  store double %x, ptr %p, align 8
  ret void
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define internal double @f.capsule.fwd.or(double %0)
; CHECK:         %a = alloca [4 x double], align 16
; CHECK:         %"a'" = call ptr @__capsule_shadow_alloc(i64 32)
; CHECK:         call void @fill.capsule.fwd.do(ptr %a, double %0, ptr %"a'")
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store ptr %"a'", ptr [[SA:%[0-9]+]]
; CHECK-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; CHECK-NOT:     @__capsule_shadow_free
; CHECK:         ret double %v

; CHECK-LABEL: define internal { double } @f.capsule.rev.or(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; CHECK-DAG:     [[SP:%[0-9]+]] = load ptr, ptr [[SA]]
; CHECK-NOT:     @__capsule_shadow_free
; CHECK:         store double {{%[0-9]+}}, ptr [[SP]]
; CHECK-NOT:     @__capsule_shadow_free
; CHECK:         call { double } @fill.capsule.rev.do()
; CHECK:         call void @__capsule_shadow_free(ptr [[SP]])
; CHECK:         ret { double }
