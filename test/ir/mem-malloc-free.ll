; Heap blocks get shadow blocks: the forward sweep calls
; __capsule_shadow_alloc with malloc's size right after malloc. The reverse
; sweep passes free first (__capsule_shadow_note_free: the shadow must
; outlive the primal block until the reverse sweep is done with it), then
; the store and load adjoints through the shadow, and releases the shadow
; when it reaches the malloc (__capsule_shadow_release).
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %p = call ptr @malloc(i64 %bytes)
  store double %x, ptr %p, align 8
  %v = load double, ptr %p, align 8
  %r = fmul double %v, %v
  call void @free(ptr %p)
  ret double %r
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x, i64 %n) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x, i64 %n)
  ret double %d
}

; CHECK-LABEL: define internal double @f.capsule.fwd.ocr(double %0, i64 %1)
; CHECK:         %p = call ptr @malloc(i64 %bytes)
; CHECK:         %"p'" = call ptr @__capsule_shadow_alloc(i64 %bytes)
; CHECK:         call void @free(ptr %p)
; CHECK-NOT:     @__capsule_shadow
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store ptr %"p'", ptr [[SA:%[0-9]+]]
; CHECK-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double } @f.capsule.rev.ocr(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; CHECK-DAG:     [[SP:%[0-9]+]] = load ptr, ptr [[SA]]
; CHECK:         call void @__capsule_shadow_note_free(ptr [[SP]])
; The load of v adds into the shadow, the store of x takes it back out:
; CHECK:         [[OLD:%.*]] = load double, ptr [[SP]]
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], {{%[0-9]+}}
; CHECK-NEXT:    store double [[NEW]], ptr [[SP]]
; CHECK-NEXT:    [[DX:%.*]] = load double, ptr [[SP]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[SP]]
; CHECK:         call void @__capsule_shadow_release(ptr [[SP]])
; CHECK-NOT:     @__capsule_shadow
; CHECK:         ret { double }
