// Error: f itself computes a gradient (nested differentiation, e.g. for a
// Hessian-vector product): not supported yet, and said so by name.
// RUN: not %clang -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

static double g(double y) { return y * y * y; }

double f(double x) {
  // CHECK: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': a derivative call inside differentiated code (nested differentiation) is not supported yet
  double dg = __capsule_autodiff((void *)g, capsule_out, x);
  return dg * x;
}

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }
