// Error: __capsule_autodiff_checkpointed is reserved and not implemented yet.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

double f(double x) { return x * x; }

double use(double x) {
  // CHECK: {{.*}}checkpointed-not-yet.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}not yet
  return __capsule_autodiff_checkpointed((void *)f, capsule_out, x);
}
