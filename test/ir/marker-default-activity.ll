; Arguments without an activity marker take defaults: floating-point values
; are out (their adjoints are returned), pointers are dup (the next argument
; is their shadow), integers are const. Two out arguments make the reverse
; sweep return { double, float }, which the marker's struct result receives.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, ptr %p, i64 %n, float %y) {
entry:
  %v = load double, ptr %p
  %c = sitofp i64 %n to double
  %yx = fpext float %y to double
  %a = fmul double %x, %v
  %b = fmul double %a, %yx
  %r = fadd double %b, %c
  ret double %r
}

declare { double, float } @__capsule_autodiff_pair(ptr, ...)

; CHECK-LABEL: define { double, float } @grad(
; CHECK-SAME: double [[X:%.*]], ptr [[P:%.*]], ptr [[DP:%.*]], i64 [[N:%.*]], float [[Y:%.*]])
; CHECK:         call void @__capsule_gradient_begin()
; CHECK-NEXT:    call double @f.capsule.fwd.odcor(double [[X]], ptr [[P]], i64 [[N]], float [[Y]], ptr [[DP]])
; CHECK-NEXT:    call void @__capsule_gradient_forward_done()
; CHECK-NEXT:    [[ADJ:%.*]] = call { double, float } @f.capsule.rev.odcor(double 1.000000e+00)
; CHECK-NEXT:    call void @__capsule_gradient_end()
; The struct of adjoints is the marker's result type, and becomes its
; result as it is (an ABI-coerced result type would go through a stack
; image):
; CHECK-NEXT:    ret { double, float } [[ADJ]]
define { double, float } @grad(double %x, ptr %p, ptr %dp, i64 %n, float %y) {
entry:
  %r = call { double, float } (ptr, ...) @__capsule_autodiff_pair(ptr @f, double %x, ptr %p, ptr %dp, i64 %n, float %y)
  ret { double, float } %r
}

; CHECK-LABEL: define internal double @f.capsule.fwd.odcor(double %0, ptr %1, i64 %2, float %3, ptr %"p'")
; CHECK-LABEL: define internal { double, float } @f.capsule.rev.odcor(double %0)
; CHECK:         fadd double {{%.*}}, 0.000000e+00
; CHECK-NEXT:    insertvalue { double, float } poison, double {{%.*}}, 0
; CHECK-NEXT:    fadd float {{%.*}}, 0.000000e+00
; CHECK-NEXT:    insertvalue { double, float } {{%.*}}, float {{%.*}}, 1
; CHECK:         ret { double, float }
