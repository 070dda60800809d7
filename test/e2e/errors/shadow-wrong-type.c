// Error: the shadow following capsule_dup has the wrong type (a double where a pointer is needed).
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

void __capsule_autodiff_v(void *, ...);

double f(const double *x) { return x[0] * x[1]; }

void use(double *x) {
  // CHECK: {{.*}}shadow-wrong-type.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}shadow
  __capsule_autodiff_v((void *)f, capsule_dup, x, 3.0);
}
