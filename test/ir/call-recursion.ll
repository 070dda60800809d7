; Recursion: the marker's derivative of f (f.capsule.fwd.ocr / rev.ocr)
; calls the derivative of f as a callee (the .nested pair, which may not
; reload memory from the tape-free top level), and that one calls itself:
; its forward sweep calls its forward sweep, its reverse sweep its reverse
; sweep with the adjoint of the recursive call's result.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(double %x, i32 %n) {
entry:
  %stop = icmp sle i32 %n, 0
  br i1 %stop, label %base, label %step
base:
  ret double %x
step:
  %m = sub i32 %n, 1
  %t = call double @f(double %x, i32 %m)
  %r = fmul double %t, %x
  ret double %r
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x, i32 %n) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x, i32 %n)
  ret double %d
}

; CHECK-LABEL: define internal double @f.capsule.fwd.ocr(double %0, i32 %1)
; CHECK:         call double @f.capsule.fwd.ocr.nested(double %0, i32 %m)

; CHECK-LABEL: define internal { double } @f.capsule.rev.ocr(double %0)
; CHECK:         call { double } @f.capsule.rev.ocr.nested(double

; CHECK-LABEL: define internal double @f.capsule.fwd.ocr.nested(double %0, i32 %1)
; CHECK:       {{^}}step:
; CHECK-NEXT:    %m = sub i32 %1, 1
; CHECK:         [[T:%[0-9]+]] = call double @f.capsule.fwd.ocr.nested(double %0, i32 %m)
; CHECK:         %r = fmul double [[T]], %0
; CHECK:         call ptr @__capsule_tape_push_slow(

; CHECK-LABEL: define internal { double } @f.capsule.rev.ocr.nested(double %0)
; CHECK:       {{^}}rev.step:
; CHECK:         call ptr @__capsule_tape_pop_slow(
; CHECK:         [[DT:%[0-9]+]] = fadd double -0.000000e+00, {{%[0-9]+}}
; CHECK:         [[RR:%[0-9]+]] = call { double } @f.capsule.rev.ocr.nested(double [[DT]])
; CHECK:         [[DX:%[0-9]+]] = extractvalue { double } [[RR]], 0
; CHECK-NEXT:    fadd double {{%[0-9]+}}, [[DX]]
; CHECK-NOT:   define
