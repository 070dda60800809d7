; A call to a function defined in the module is differentiated too, with the
; signature the call site implies: q has no shadow (const in f) -> c, p has
; one -> d, s is active -> o, k is an integer -> c, the result is active -> r;
; nothing in f writes the memory of q or p, so both are stable (.s3: g may
; load them again in its reverse sweep instead of taping).
; The forward sweep calls g's forward sweep (shadows appended) before f's
; own record is pushed; the reverse sweep pops f's record, then calls g's
; reverse sweep with the adjoint of the call's result and adds the adjoint
; it returns for s.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

@capsule_const = external global i32

define double @g(ptr %q, ptr %p, double %s, i32 %k) {
entry:
  %v = load double, ptr %p, align 8
  %w = load double, ptr %q, align 8
  %kf = sitofp i32 %k to double
  %a = fmul double %v, %s
  %b = fmul double %a, %w
  %r = fmul double %b, %kf
  ret double %r
}

define double @f(ptr %p, ptr %q, double %x, i32 %k) {
entry:
  %s = fmul double %x, %x
  %t = call double @g(ptr %q, ptr %p, double %s, i32 %k)
  %r = fmul double %t, %x
  ret double %r
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(ptr %p, ptr %dp, ptr %q, double %x, i32 %k) {
entry:
  %c = load i32, ptr @capsule_const
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, ptr %p, ptr %dp, i32 %c, ptr %q, double %x, i32 %k)
  ret double %d
}

; CHECK-LABEL: define internal double @f.capsule.fwd.dcocr(ptr %0, ptr %1, double %2, i32 %3, ptr %"p'")
; CHECK:         %s = fmul double %2, %2
; CHECK:         [[T:%[0-9]+]] = call double @g.capsule.fwd.cdocr.s3(ptr %1, ptr %0, double %s, i32 %3, ptr %"p'")
; CHECK:         %r = fmul double [[T]], %2
; CHECK:         call ptr @__capsule_tape_push_slow(
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double } @f.capsule.rev.dcocr(double %0)
; CHECK:         call ptr @__capsule_tape_pop_slow(
; CHECK:         [[DTM:%.*]] = fmul double {{%[0-9]+}}, {{%[0-9]+}}
; CHECK-NEXT:    [[DT:%.*]] = fadd double -0.000000e+00, [[DTM]]
; CHECK:         [[GR:%.*]] = call { double } @g.capsule.rev.cdocr.s3(double [[DT]])
; CHECK:         [[DS:%.*]] = extractvalue { double } [[GR]], 0
; CHECK-NEXT:    [[DS1:%.*]] = fadd double -0.000000e+00, [[DS]]
; CHECK-NEXT:    fmul double [[DS1]], {{%[0-9]+}}
; CHECK:         ret { double }

; CHECK-LABEL: define internal double @g.capsule.fwd.cdocr.s3(ptr %0, ptr %1, double %2, i32 %3, ptr %"p'")
; CHECK:         ret double %r
; CHECK-LABEL: define internal { double } @g.capsule.rev.cdocr.s3(double %0)
; CHECK:         call ptr @__capsule_tape_pop_slow(
; CHECK:         ret { double }
