; A marker call becomes: gradient_begin, the forward sweep (primal arguments,
; then the shadows of the dup arguments), forward_done, the reverse sweep
; seeded with 1.0 (f returns a double), gradient_end; the adjoint of the one
; out argument replaces the marker's result. The marker call and the loads
; of the activity markers are gone.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

@capsule_out = external global i32
@capsule_dup = external global i32
@capsule_const = external global i32

define double @f(double %x, ptr %p, i32 %n) {
entry:
  %v = load double, ptr %p
  %m = fmul double %x, %v
  ret double %m
}

declare double @__capsule_autodiff(ptr, ...)

; CHECK-LABEL: define double @grad(
; CHECK-SAME: double [[X:%.*]], ptr [[P:%.*]], ptr [[DP:%.*]], i32 [[N:%.*]])
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @__capsule_gradient_begin()
; CHECK-NEXT:    call double @f.capsule.fwd.odcr(double [[X]], ptr [[P]], i32 [[N]], ptr [[DP]])
; CHECK-NEXT:    call void @__capsule_gradient_forward_done()
; CHECK-NEXT:    [[ADJ:%.*]] = call { double } @f.capsule.rev.odcr(double 1.000000e+00)
; CHECK-NEXT:    call void @__capsule_gradient_end()
; CHECK-NEXT:    [[DX:%.*]] = extractvalue { double } [[ADJ]], 0
; CHECK-NEXT:    ret double [[DX]]
; CHECK-NEXT:  }
define double @grad(double %x, ptr %p, ptr %dp, i32 %n) {
entry:
  %o = load i32, ptr @capsule_out
  %d = load i32, ptr @capsule_dup
  %c = load i32, ptr @capsule_const
  %r = call double (ptr, ...) @__capsule_autodiff(ptr @f, i32 %o, double %x, i32 %d, ptr %p, ptr %dp, i32 %c, i32 %n)
  ret double %r
}

; CHECK-LABEL: define internal double @f.capsule.fwd.odcr(double %0, ptr %1, i32 %2, ptr %"p'")
; CHECK-LABEL: define internal { double } @f.capsule.rev.odcr(double %0)
; CHECK-NOT: call {{.*}}@__capsule_autodiff
