; A mutable global defined in the module gets a shadow global,
; @scale.capsule.shadow (internal, zero-initialised, same type and
; alignment). Every gradient call first lets the runtime save it if the
; call runs inside another (a custom rule's body computing a gradient:
; keep_globals), zeroes it right after, so adjoints left by a previous call
; cannot leak into the next, then has the runtime tie it to the dup
; arguments (none here). The reverse
; sweep addresses it directly (no shadow pointer is taped): the store to
; @scale takes the adjoint out of the shadow and zeroes it, the load of
; @scale adds into it.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

@scale = global double 2.0, align 8

; CHECK: @scale.capsule.shadow = internal global double 0.000000e+00, align 8
; CHECK: @capsule.shadow.globals = private constant [1 x { ptr, ptr, i64, ptr, ptr, i64 }] [{ ptr, ptr, i64, ptr, ptr, i64 } { ptr @scale, ptr @scale.capsule.shadow, i64 8, ptr @scale.capsule.name, ptr @scale.capsule.pointers, i64 0 }]

define double @f(double %x) {
entry:
  %s = load double, ptr @scale, align 8
  %a = fmul double %x, %s
  store double %a, ptr @scale, align 8
  %r = fmul double %a, %a
  ret double %r
}

declare double @__capsule_autodiff(ptr, ...)

; CHECK-LABEL: define double @grad(double %x)
; CHECK-NEXT:  entry:
; CHECK:         call void @__capsule_gradient_begin()
; CHECK-NEXT:    call void @__capsule_gradient_keep_globals(ptr @capsule.shadow.globals, i64 1)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 @scale.capsule.shadow, i8 0, i64 8, i1 false)
; CHECK-NEXT:    call void @__capsule_bind_shadow_globals(ptr @capsule.shadow.globals, i64 1, ptr %dup.args, ptr %dup.shadows, ptr %dup.bound.shadows, i64 0)
; CHECK-NEXT:    call double @f.capsule.fwd.or(double %x)
; CHECK:         call { double } @f.capsule.rev.or(double 1.000000e+00)
; CHECK-NEXT:    call void @__capsule_unbind_shadow_globals(ptr @capsule.shadow.globals, i64 1, ptr %dup.args, ptr %dup.shadows, i64 0)
define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define internal double @f.capsule.fwd.or(double %0)
; CHECK-NOT:     store ptr @scale.capsule.shadow
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double } @f.capsule.rev.or(double %0)
; CHECK:         [[DA:%.*]] = load double, ptr @scale.capsule.shadow
; CHECK-NEXT:    store double 0.000000e+00, ptr @scale.capsule.shadow
; CHECK:         [[OLD:%.*]] = load double, ptr @scale.capsule.shadow
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], {{%[0-9]+}}
; CHECK-NEXT:    store double [[NEW]], ptr @scale.capsule.shadow
; CHECK:         ret { double }
