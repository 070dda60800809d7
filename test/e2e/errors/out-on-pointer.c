// Error: capsule_out on a pointer argument (out is only for floating-point scalars).
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

double f(const double *x, double a) { return x[0] * a; }

double use(double *x, double a) {
  // CHECK: {{.*}}out-on-pointer.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}out
  return __capsule_autodiff((void *)f, capsule_out, x, capsule_out, a);
}
