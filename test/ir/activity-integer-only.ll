; Integer code carries no derivative: f reads and writes integers through a
; dup pointer and returns a double converted from an integer (sitofp starts
; no derivative). Nothing is taped, and the reverse sweep is empty: no
; floating-point arithmetic, no shadow memory accesses, no calls.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

define double @f(ptr %p, i32 %n) {
entry:
  %v = load i32, ptr %p, align 4
  %m = mul i32 %v, %n
  store i32 %m, ptr %p, align 4
  %d = sitofp i32 %m to double
  ret double %d
}

declare void @__capsule_autodiff(ptr, ...)

define void @grad(ptr %p, ptr %dp, i32 %n) {
entry:
  call void (ptr, ...) @__capsule_autodiff(ptr @f, ptr %p, ptr %dp, i32 %n)
  ret void
}

; CHECK-LABEL: define internal double @f.capsule.fwd.dcr(ptr %0, i32 %1, ptr %"p'")
; CHECK-NOT:     @__capsule_tape_push_slow
; CHECK-NOT:     %"p'"
; CHECK:         ret double %d

; CHECK-LABEL: define internal {} @f.capsule.rev.dcr(double %0)
; CHECK-NOT:     {{ f(add|sub|mul|div|neg) }}
; CHECK-NOT:     {{ (load|store|call) }}
; CHECK:         ret {} poison
; CHECK-NEXT:  }
