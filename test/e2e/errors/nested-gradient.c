// Error: f itself computes a gradient (reverse over reverse, forward over reverse: nested differentiation of a gradient, e.g. for a Hessian-vector product): not supported yet, and said so by name at the inner call, at -O0 and -O2.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

static double g(double y) { return y * y * y; }

double f(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': a gradient call inside differentiated code (nested differentiation): forward over reverse and reverse over reverse are not supported yet
  double dg = __capsule_autodiff((void *)g, capsule_out, x);
  return dg * x;
}

double h(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'h': a gradient call inside differentiated code (nested differentiation): forward over reverse and reverse over reverse are not supported yet
  return __capsule_autodiff((void *)g, capsule_out, x) + x;
}

/* A marker that differentiates the function it is in cannot be lowered
 * before that function is differentiated. */
double self(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'self': a derivative call inside differentiated code that cannot be lowered first (it differentiates a function that reaches it, or it is checkpointed) is not supported
  return x > 1 ? x : __capsule_fwddiff((void *)self, x + 1, 1.0);
}

double use(double x) {
  return __capsule_autodiff((void *)f, capsule_out, x) +
         __capsule_fwddiff((void *)h, x, 1.0) + self(x);
}
