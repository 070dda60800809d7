; A store into memory that has a shadow: the reverse sweep moves the adjoint
; the location holds to the stored value and zeroes the shadow location (the
; store overwrote whatever was there). f returns void, so the reverse sweep
; takes no seed; the adjoint of x is 2 * x * dout.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define void @f(ptr %out, double %x) {
entry:
  %s = fmul double %x, %x
  store double %s, ptr %out, align 8
  ret void
}

declare double @__capsule_autodiff(ptr, ...)

; CHECK-LABEL: define double @grad(
; CHECK:         call { double } @f.capsule.rev.do()
define double @grad(ptr %out, ptr %dout, double %x) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, ptr %out, ptr %dout, double %x)
  ret double %d
}

; CHECK-LABEL: define internal void @f.capsule.fwd.do(ptr %0, double %1, ptr %"out'")
; CHECK:         store double %s, ptr %0
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store ptr %"out'", ptr [[SA:%[0-9]+]]
; CHECK-DAG:     [[SA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF:[0-9]+]]
; CHECK:         ret void

; CHECK-LABEL: define internal { double } @f.capsule.rev.do()
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[SA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[SOFF]]
; CHECK-DAG:     [[SP:%[0-9]+]] = load ptr, ptr [[SA]]
; CHECK:         [[DS:%.*]] = load double, ptr [[SP]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[SP]]
; CHECK-NEXT:    [[DS1:%.*]] = fadd double -0.000000e+00, [[DS]]
; CHECK-NEXT:    fmul double [[DS1]], {{%[0-9]+}}
; CHECK:         ret { double }
