// Error: a pointer made from an integer is stored into a struct that has
// adjoints; loaded back, it would have no shadow. Refused at compile time
// instead of crashing at run time.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdint.h>

typedef struct {
  double *p;
  double w;
} Ref;

double f(double *x, intptr_t addr) {
  Ref r;
  // CHECK: unknown-pointer-stored.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': pointer of unknown origin
  r.p = (double *)addr;
  r.w = x[0];
  return r.p[0] * r.w;
}

double use(double *x, double *dx, intptr_t a) {
  return __capsule_autodiff((void *)f, capsule_dup, x, dx, capsule_const, a);
}
