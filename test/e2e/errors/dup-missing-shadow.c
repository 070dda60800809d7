// Error: capsule_dup is followed by its primal but the shadow is missing
// (last argument), or the shadow is a null pointer while the argument is
// not (the gradient wrote through it: a crash at run time, accepted
// silently before). A null argument with a null shadow (an optional
// argument left out) compiles.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -DNULL_SHADOW %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NULL
// RUN: not %clang -O2 -g -DNULL_SHADOW %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NULL
// RUN: %clang -O2 -g -DBOTH_NULL %capsule_cflags -c %s -o %t.o
#include <capsule/capsule.h>
#include <stddef.h>

void __capsule_autodiff_v(void *, ...);

double f(const double *x) { return x[0] * x[1]; }
double g(const double *x, const double *w) {
  return w ? w[0] * x[0] : x[0] * x[1];
}

void use(double *x, double *dx) {
#if defined(NULL_SHADOW)
  // NULL: {{.*}}dup-missing-shadow.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}the shadow of argument 1 of 'f' is a null pointer
  __capsule_autodiff_v((void *)f, capsule_dup, x, (double *)NULL);
#elif defined(BOTH_NULL)
  __capsule_autodiff_v((void *)g, capsule_dup, x, dx, capsule_dup, NULL, NULL);
#else
  // CHECK: {{.*}}dup-missing-shadow.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}shadow
  __capsule_autodiff_v((void *)f, capsule_dup, x);
#endif
}
