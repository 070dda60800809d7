// Error: the marker passes more arguments than the differentiated function takes.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

void __capsule_autodiff_v(void *, ...);

double f(const double *x) { return x[0] * x[1]; }

void use(double *x, double *dx) {
  // CHECK: {{.*}}too-many-args.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}arguments
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, 5);
}
