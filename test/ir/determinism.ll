; The output is deterministic: eight runs on a function with six taped
; blocks print the same module (names such as tape.top1 and tape.push.join3
; follow the IR, not heap addresses).
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s -o %t.first
; RUN: for i in 1 2 3 4 5 6 7; do %opt -load-pass-plugin=%plugin -passes=capsule -S %s | cmp - %t.first || exit 1; done

define double @f(double %x, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %a, label %b
a:
  %ya = fmul double %x, %x
  br label %m
b:
  %yb = fmul double %x, 3.0
  br label %m
m:
  %y = phi double [ %ya, %a ], [ %yb, %b ]
  %c1 = icmp sgt i32 %n, 5
  br i1 %c1, label %c, label %d
c:
  %zc = fmul double %y, %y
  br label %j
d:
  %zd = fmul double %y, %x
  br label %j
j:
  %z = phi double [ %zc, %c ], [ %zd, %d ]
  %w = fmul double %z, %y
  ret double %w
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(double %x, i32 %n) {
entry:
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, double %x, i32 %n)
  ret double %d
}
