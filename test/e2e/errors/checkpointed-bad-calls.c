// Error: what checkpointed gradients do not handle yet is reported at compile
// time (the calls are otherwise parsed and checked like plain ones).
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

_Float16 half_result(_Float16 *x) { return x[0] * x[0]; }

void use_half_result(_Float16 *x, _Float16 *dx) {
  // CHECK: {{.*}}checkpointed-bad-calls.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}__capsule_autodiff_checkpointed seeds only float and double results
  __capsule_autodiff_checkpointed((void *)half_result, capsule_dup, x, dx);
}
