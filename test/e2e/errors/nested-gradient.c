// Error: what nesting over a gradient does not support yet is said by name at the inner call or the construct, at -O0 and -O2: reverse mode over a checkpointed gradient; and a third level over a gradient (any mode over a forward-mode derivative of a gradient, or over a gradient of a gradient). Forward over reverse and reverse over reverse alone are accepted (test/e2e/nesting/forward-over-reverse.c, reverse-over-reverse.c).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
#include <capsule/capsule.h>
#include <stdlib.h>

static double g(double y) { return y * y * y; }

/* Reverse over reverse: accepted. */
double f(double x) {
  double dg = __capsule_autodiff((void *)g, capsule_out, x);
  return dg * x;
}

/* A third level over a gradient of a gradient, in reverse and in forward
 * mode: refused at the inner call of the middle level. */
double f2(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f2': differentiating a gradient of code that itself computes gradients (a third level over reverse mode) is not supported yet
  return __capsule_autodiff((void *)f, capsule_out, x);
}
double df2(double x) { return __capsule_autodiff((void *)f2, capsule_out, x); }
double f3(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f3': differentiating a gradient of code that itself computes gradients (a third level over reverse mode) is not supported yet
  return __capsule_autodiff((void *)f, capsule_out, x) * x;
}
double df3(double x) { return __capsule_fwddiff((void *)f3, x, 1.0); }

/* Forward over reverse: accepted. */
double h(double x) { return __capsule_autodiff((void *)g, capsule_out, x) + x; }
double dh(double x) { return __capsule_fwddiff((void *)h, x, 1.0); }

/* A third level over the gradient: refused at the gradient call. */
double k(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'k': differentiating a forward-mode derivative of a gradient (a third level over reverse mode) is not supported yet
  return __capsule_autodiff((void *)g, capsule_out, x) * x;
}
double dk(double x) { return __capsule_fwddiff((void *)k, x, 1.0); }

/* Reverse mode over a checkpointed gradient (forward mode over it is
 * accepted: test/e2e/nesting/forward-over-checkpointed.c). */
static double quartic(double x) { return x * x * x * x; }
double checkpointed(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'checkpointed': a checkpointed gradient inside code differentiated in reverse mode (reverse over reverse) is not supported yet; for second derivatives use forward mode over it (__enzyme_fwddiff of a function that calls __capsule_autodiff_checkpointed)
  return __capsule_autodiff_checkpointed((void *)quartic, x) * x;
}

/* A third level over a checkpointed gradient. */
double checkpointed2(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'checkpointed2': differentiating a forward-mode derivative of a checkpointed gradient (a third level over reverse mode) is not supported yet
  return __capsule_autodiff_checkpointed((void *)quartic, x) * x;
}
double dcheckpointed2(double x) {
  return __capsule_fwddiff((void *)checkpointed2, x, 1.0);
}

/* A marker that differentiates the function it is in cannot be lowered
 * before that function is differentiated. */
double self(double x) {
  // CHECK-DAG: nested-gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'self': a derivative call inside differentiated code that cannot be lowered first (it differentiates a function that reaches it) is not supported
  return x > 1 ? x : __capsule_fwddiff((void *)self, x + 1, 1.0);
}

double use(double x, double *a, double *da) {
  return __capsule_autodiff((void *)f, capsule_out, x) +
         __capsule_fwddiff((void *)dk, x, 1.0) + dh(x) + self(x) +
         __capsule_autodiff((void *)checkpointed, capsule_out, x) +
         __capsule_fwddiff((void *)dcheckpointed2, x, 1.0) + df2(x) + df3(x);
}
