// Error: the marker passes more arguments than the differentiated function
// takes; an activity marker with nothing after it is named as such (it was
// "too many arguments ... passes 1 more").
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -DTRAILING %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=TRAILING
#include <capsule/capsule.h>

void __capsule_autodiff_v(void *, ...);

double f(const double *x) { return x[0] * x[1]; }

void use(double *x, double *dx) {
#ifdef TRAILING
  // TRAILING: {{.*}}too-many-args.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}activity marker 'capsule_const' ends the call: no argument follows it, and 'f' has no parameter left for one
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const);
#else
  // CHECK: {{.*}}too-many-args.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}arguments
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, 5);
#endif
}
