; The reverse sweep tells the optimizer what its shadow accesses cannot
; alias: the shadow of a block allocated inside the function is a fresh
; runtime block, distinct from the shadows reached through arguments; each
; gets its own alias scope and is noalias with the other. (A pointer whose
; origin is unknown would get no tags.)
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

declare ptr @malloc(i64)
declare void @free(ptr)

define double @f(ptr %x) {
entry:
  %buf = call ptr @malloc(i64 8)
  %a = load double, ptr %x
  %sq = fmul double %a, %a
  store double %sq, ptr %buf
  %b = load double, ptr %buf
  call void @free(ptr %buf)
  ret double %b
}

declare double @__capsule_autodiff(ptr, ...)
define double @grad(ptr %x, ptr %dx) {
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, ptr %x, ptr %dx)
  ret double %d
}

; CHECK-LABEL: define internal {} @f.capsule.rev.dr(
; Reversing `load %buf`, then `store %sq, %buf`: the internal block's shadow.
; CHECK:       load double, ptr [[B:%[0-9]+]], align 8, !alias.scope [[BUF:![0-9]+]], !noalias [[NOTBUF:![0-9]+]]
; CHECK:       store double {{%.*}}, ptr [[B]], align 8, !alias.scope [[BUF]], !noalias [[NOTBUF]]
; CHECK:       store double 0.000000e+00, ptr [[B]], align 8, !alias.scope [[BUF]], !noalias [[NOTBUF]]
; Reversing `load %x`: the shadow reached through the argument.
; CHECK:       load double, ptr [[X:%[0-9]+]], align 8, !alias.scope [[ARG:![0-9]+]], !noalias [[NOTARG:![0-9]+]]
; CHECK:       store double {{%.*}}, ptr [[X]], align 8, !alias.scope [[ARG]], !noalias [[NOTARG]]
; CHECK-DAG:   [[BUF]] = !{[[BUFSCOPE:![0-9]+]]}
; CHECK-DAG:   [[ARG]] = !{[[ARGSCOPE:![0-9]+]]}
; CHECK-DAG:   [[NOTBUF]] = !{{{.*}}[[ARGSCOPE]]{{.*}}}
; CHECK-DAG:   [[NOTARG]] = !{{{.*}}[[BUFSCOPE]]{{.*}}}
