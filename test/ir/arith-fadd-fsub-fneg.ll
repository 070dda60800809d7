; Linear operations: the adjoint of x + y goes to both operands, x - y sends
; its negation to y, -x sends the negation to x. None of them needs a primal
; value, so nothing is taped: the forward sweeps push nothing and the reverse
; sweeps pop nothing.
; Each function has its own check prefix: the order in which the pass emits
; the derivatives of several marker calls is not part of the contract.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s -o %t
; RUN: FileCheck --check-prefix=ADD %s < %t
; RUN: FileCheck --check-prefix=SUB %s < %t
; RUN: FileCheck --check-prefix=NEG %s < %t

define double @add(double %x, double %y) {
entry:
  %r = fadd double %x, %y
  ret double %r
}

define double @sub(double %x, double %y) {
entry:
  %r = fsub double %x, %y
  ret double %r
}

define double @neg(double %x) {
entry:
  %r = fneg double %x
  ret double %r
}

declare { double, double } @__capsule_autodiff2(ptr, ...)
declare double @__capsule_autodiff(ptr, ...)

define void @grad(double %x, double %y) {
entry:
  %a = call { double, double } (ptr, ...) @__capsule_autodiff2(ptr @add, double %x, double %y)
  %b = call { double, double } (ptr, ...) @__capsule_autodiff2(ptr @sub, double %x, double %y)
  %c = call double (ptr, ...) @__capsule_autodiff(ptr @neg, double %x)
  ret void
}

; ADD-LABEL: define internal double @add.capsule.fwd.oor(
; ADD-NOT:     @__capsule_tape_push_slow
; ADD:         ret double
; ADD-LABEL: define internal { double, double } @add.capsule.rev.oor(double %0)
; ADD-NOT:     @__capsule_tape_pop_slow
; ADD:         [[D:%.*]] = fadd double -0.000000e+00, %0
; ADD-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[D]]
; ADD-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[D]]
; ADD-NOT:     fneg
; ADD:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; ADD-NEXT:         [[R0:%.*]] = insertvalue { double, double } poison, double [[DXN]], 0
; ADD-NEXT:    [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; ADD-NEXT:    insertvalue { double, double } [[R0]], double [[DYN]], 1

; SUB-LABEL: define internal double @sub.capsule.fwd.oor(
; SUB-NOT:     @__capsule_tape_push_slow
; SUB:         ret double
; SUB-LABEL: define internal { double, double } @sub.capsule.rev.oor(double %0)
; SUB-NOT:     @__capsule_tape_pop_slow
; SUB:         [[D:%.*]] = fadd double -0.000000e+00, %0
; SUB-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[D]]
; SUB-NEXT:    [[MINUS:%.*]] = fneg double [[D]]
; SUB-NEXT:    [[DY:%.*]] = fadd double -0.000000e+00, [[MINUS]]
; SUB:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; SUB-NEXT:         [[R0:%.*]] = insertvalue { double, double } poison, double [[DXN]], 0
; SUB-NEXT:    [[DYN:%.*]] = fadd double [[DY]], 0.000000e+00
; SUB-NEXT:    insertvalue { double, double } [[R0]], double [[DYN]], 1

; NEG-LABEL: define internal double @neg.capsule.fwd.or(
; NEG-NOT:     @__capsule_tape_push_slow
; NEG:         ret double
; NEG-LABEL: define internal { double } @neg.capsule.rev.or(double %0)
; NEG-NOT:     @__capsule_tape_pop_slow
; NEG:         [[D:%.*]] = fadd double -0.000000e+00, %0
; NEG-NEXT:    [[MINUS:%.*]] = fneg double [[D]]
; NEG-NEXT:    [[DX:%.*]] = fadd double -0.000000e+00, [[MINUS]]
; NEG:         [[DXN:%.*]] = fadd double [[DX]], 0.000000e+00
; NEG-NEXT:         insertvalue { double } poison, double [[DXN]], 0
