// Error: capsule_dup is followed by its primal but the shadow is missing (last argument).
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

void __capsule_autodiff_v(void *, ...);

double f(const double *x) { return x[0] * x[1]; }

void use(double *x) {
  // CHECK: {{.*}}dup-missing-shadow.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}shadow
  __capsule_autodiff_v((void *)f, capsule_dup, x);
}
