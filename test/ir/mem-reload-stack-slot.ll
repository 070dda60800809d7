; The marker's function reloads memory whose writers all run before the load,
; but not from its own stack slots: they are gone when the reverse sweep runs.
; A select (or phi) of two slots hides them from getUnderlyingObject, so the
; rule looks through it; %v is taped. (test/e2e/kernel-heat-equation.c at -O0,
; with its swapped buffers, got a wrong gradient without this.)
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(ptr %x, i1 %c) {
entry:
  %a = alloca double
  %b = alloca double
  %x0 = load double, ptr %x
  store double %x0, ptr %a
  %x1 = fmul double %x0, 2.0
  store double %x1, ptr %b
  %p = select i1 %c, ptr %a, ptr %b
  br label %next
next:
  %v = load double, ptr %p
  %r = fmul double %v, %v
  ret double %r
}

declare void @__capsule_autodiff(ptr, ...)

define void @grad(ptr %x, ptr %dx, i1 %c) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @f, ptr %x, ptr %dx, i1 %c)
  ret void
}

; CHECK-LABEL: define internal double @f.capsule.fwd.
; CHECK:       {{^}}next:
; CHECK:         %v = load double, ptr %p
; CHECK:         call ptr @__capsule_tape_push_slow(
; CHECK:         store double %v, ptr
; CHECK:         ret double %r
