; A dup argument must be followed by its shadow. Two ways to get it wrong:
; the call ends right after the argument, or the next activity marker
; stands where the shadow should be. (opt stops at the first error, so each
; case is its own module.)
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin=%plugin -passes=capsule -disable-output %t/end.ll 2>&1 | FileCheck --check-prefix=END %s
; RUN: not %opt -load-pass-plugin=%plugin -passes=capsule -disable-output %t/marker.ll 2>&1 | FileCheck --check-prefix=MARKER %s

; END: error: {{.*}}capsule: malformed call
; END-SAME: argument 1 of 'f' is dup but the call ends before its shadow

; MARKER: error: {{.*}}capsule: malformed call
; MARKER-SAME: the shadow of argument 1 of 'f' is missing: an activity marker stands in its place

;--- end.ll
@capsule_dup = external global i32

define double @f(ptr %p) {
entry:
  %v = load double, ptr %p
  ret double %v
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(ptr %p) {
entry:
  %d = load i32, ptr @capsule_dup
  %r = call double (ptr, ...) @__capsule_autodiff(ptr @f, i32 %d, ptr %p)
  ret double %r
}

;--- marker.ll
@capsule_dup = external global i32
@capsule_const = external global i32

define double @f(ptr %p, i32 %n) {
entry:
  %v = load double, ptr %p
  ret double %v
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(ptr %p, i32 %n) {
entry:
  %d = load i32, ptr @capsule_dup
  %c = load i32, ptr @capsule_const
  %r = call double (ptr, ...) @__capsule_autodiff(ptr @f, i32 %d, ptr %p, i32 %c, i32 %n)
  ret double %r
}
