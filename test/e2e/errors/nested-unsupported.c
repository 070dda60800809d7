// Error: what nested differentiation does not support yet is a compile-time
// error at the inner derivative call or at the construct, naming it (at -O0
// and -O2): three levels of forward mode over memory without derivatives, a
// checkpointed gradient of code that itself differentiates, and vector
// forward mode over forward mode that keeps tangents of memory (vector mode
// over a gradient once crashed the compiler after refusing: the unfinished
// lanes reached the scalarizer).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdlib.h>

void __capsule_autodiff_v(void *, ...);

/* Three levels of forward mode over memory without derivatives, which the
 * runtime keeps the tangents of in one sink per level of two. */
typedef struct {
  double *buf;
} scratch;
__attribute__((noinline)) static double *slot(const scratch *s) {
  return s->buf;
}
static double level1(const scratch *s, double z) {
  *slot(s) = z * z;
  return *slot(s) * z;
}
static double level2(const scratch *s, double z) {
  return __capsule_fwddiff((void *)level1, capsule_const, s, z, 1.0);
}
double level3(const scratch *s, double z) {
  return __capsule_fwddiff((void *)level2, capsule_const, s, z, 1.0);
}
// CHECK-DAG: error: capsule: cannot differentiate function '{{[a-z0-9]+}}': forward mode nested three or more levels deep over code that keeps tangents of memory without derivatives (pointers to constant data beside pointers with tangents, such as an accessor's result) is not supported yet

static double cube(double y) { return y * y * y; }
double slope(double x) { return __capsule_fwddiff((void *)cube, x, 1.0); }

/* Vector forward mode over forward mode that keeps tangents of memory
 * without derivatives (the tangent sink). */
extern int enzyme_width;
typedef struct {
  double d[2];
} two;
two __enzyme_fwddiff_two(void *, ...);
typedef struct {
  double *buf;
} scratch2;
__attribute__((noinline)) static double *slot2(const scratch2 *s) {
  // CHECK-DAG: nested-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'slot2': vector mode (enzyme_width) of code that itself computes tangents of memory (forward over forward) is not supported yet
  return s->buf;
}
static double through(const scratch2 *s, double z) {
  *slot2(s) = z * z;
  return *slot2(s) * z;
}
static double scratch_slope(const scratch2 *s, double y) {
  return __capsule_fwddiff((void *)through, capsule_const, s, y, 1.0);
}

void use(double *x, double *v, double *dx, double *dv, const scratch *sc,
         double **keep) {
  __capsule_fwddiff((void *)level3, capsule_const, sc, 1.0, 1.0);
  // CHECK-DAG: nested-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'slope': a checkpointed gradient of code that itself calls a derivative marker (nested differentiation) is not supported yet
  __capsule_autodiff_checkpointed((void *)slope, 1.0);
  __enzyme_fwddiff_two((void *)scratch_slope, enzyme_width, 2, capsule_const,
                       (const scratch2 *)sc, 1.0, 1.0, 2.0);
}
