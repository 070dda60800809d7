// Error: what forward mode over a checkpointed gradient does not support yet is a compile-time error at the inner call, naming it (at -O0 and -O2): the inner call also returning f's result when it is not a floating-point number, vector mode outside, and a struct passed by value; what the checkpointed gradient of the tangent function refuses (an atomic update), said once although its taped and untaped stages both meet it.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
// Said once:
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | grep -c "memory that has adjoints" | FileCheck %s --check-prefix=ONCE
// ONCE: {{^1$}}
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>

extern int enzyme_primal_return, enzyme_width;
typedef struct {
  int value;
  double dx;
} with_primal;
with_primal __capsule_autodiff_checkpointed_p(void *, ...)
    __asm__("__capsule_autodiff_checkpointed");
typedef struct {
  double t[2];
} two_tangents;
two_tangents __capsule_fwddiff_2(void *, ...) __asm__("__capsule_fwddiff");

static double cube(double x) { return x * x * x; }

static int steps_to_one(double x) {
  int k = 0;
  while (x > 1 && k < 100) {
    x = sqrt(x);
    k++;
  }
  return k;
}
double both(double x) {
  // CHECK-DAG: forward-over-checkpointed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'both': forward mode over a checkpointed gradient that also returns the function's result (enzyme_primal_return), not a floating-point number, is not supported yet
  with_primal r = __capsule_autodiff_checkpointed_p((void *)steps_to_one,
                                                    enzyme_primal_return, x);
  return r.value + r.dx;
}

double slope(double x) {
  // CHECK-DAG: forward-over-checkpointed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'slope': vector mode (enzyme_width) over a checkpointed gradient is not supported yet
  return __capsule_autodiff_checkpointed((void *)cube, x);
}

typedef struct {
  double a, b, c;
} triple;
static double triple_product(triple p, double x) {
  return p.a * p.b * p.c * x * x;
}
double by_value(double x) {
  triple p = {x, 2 * x, 3};
  // CHECK-DAG: forward-over-checkpointed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'by_value': forward mode over a checkpointed gradient of 'triple_product', which takes a struct by value, is not supported yet (pass it by pointer)
  return __capsule_autodiff_checkpointed((void *)triple_product,
                                         capsule_const, p, x);
}

/* What the checkpointed gradient of the tangent function refuses, said
 * once (with what forward mode refuses first). */
static double atom(double *x) {
  _Atomic double a = 0;
  // CHECK-DAG: forward-over-checkpointed.c:[[@LINE+2]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'atom': atomic update of memory that has derivatives other than an addition or subtraction whose old value goes unused
  // CHECK-DAG: forward-over-checkpointed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'atom': atomic update of memory that has adjoints other than an addition or subtraction whose old value goes unused
  return (a += x[0] * x[1]) * x[0];
}
static void atom_grad(double *x, double *dx) {
  __capsule_autodiff_checkpointed((void *)atom, capsule_dup, x, dx);
}

double use(double x, double *y, double *dy, double *v, double *hv,
           double **keep) {
  two_tangents t = __capsule_fwddiff_2((void *)slope, enzyme_width, 2, x, 1.0,
                                       2.0);
  __capsule_fwddiff((void *)atom_grad, capsule_dup, y, v, capsule_dup, dy, hv);
  return __capsule_fwddiff((void *)both, x, 1.0) + t.t[0] +
         __capsule_fwddiff((void *)by_value, x, 1.0);
}
