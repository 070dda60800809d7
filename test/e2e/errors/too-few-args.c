// Error: the marker passes fewer arguments than the differentiated function takes.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

void __capsule_autodiff_v(void *, ...);

double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

void use(double *x, double *dx) {
  // CHECK: {{.*}}too-few-args.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}arguments
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
}
