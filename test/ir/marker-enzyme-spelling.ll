; Enzyme's spellings: a marker named __enzyme_autodiff with user-defined
; (not external) enzyme_dup/enzyme_const/enzyme_out globals, as C code
; declaring `int enzyme_dup;` produces. They mean what the capsule_ names
; mean: the signature is dup, const, out with an active result.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

@enzyme_dup = global i32 0
@enzyme_const = global i32 0
@enzyme_out = global i32 0

define double @f(ptr %p, i32 %n, double %s) {
entry:
  %v = load double, ptr %p
  %c = sitofp i32 %n to double
  %m = fmul double %v, %c
  %r = fmul double %m, %s
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define double @grad(
; CHECK-SAME: ptr [[P:%.*]], ptr [[DP:%.*]], i32 [[N:%.*]], double [[S:%.*]])
; CHECK:         call void @__capsule_gradient_begin()
; CHECK-NEXT:    call double @f.capsule.fwd.dcor(ptr [[P]], i32 [[N]], double [[S]], ptr [[DP]])
; CHECK-NEXT:    call void @__capsule_gradient_forward_done()
; CHECK-NEXT:    [[ADJ:%.*]] = call { double } @f.capsule.rev.dcor(double 1.000000e+00)
; CHECK-NEXT:    call void @__capsule_gradient_end()
; CHECK-NEXT:    [[DS:%.*]] = extractvalue { double } [[ADJ]], 0
; CHECK-NEXT:    ret double [[DS]]
; CHECK-NOT:     @__enzyme_autodiff(
; CHECK:       }
define double @grad(ptr %p, ptr %dp, i32 %n, double %s) {
entry:
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %o = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %p, ptr %dp, i32 %c, i32 %n, i32 %o, double %s)
  ret double %r
}

; CHECK-LABEL: define internal double @f.capsule.fwd.dcor(ptr %0, i32 %1, double %2, ptr %"p'")
; CHECK-LABEL: define internal { double } @f.capsule.rev.dcor(double %0)
