// Error: what checkpointed gradients do not handle yet is reported at compile
// time (the calls are otherwise parsed and checked like plain ones).
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

struct triple {
  double a, b, c; /* passed in memory (byval) by the x86-64 C ABI */
};

double by_value(struct triple p) { return p.a * p.b * p.c; }

double use_by_value(struct triple p) {
  // CHECK: {{.*}}checkpointed-bad-calls.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}struct passed by value{{.*}}__capsule_autodiff_checkpointed
  return __capsule_autodiff_checkpointed((void *)by_value, capsule_const, p);
}
