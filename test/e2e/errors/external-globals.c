// Globals defined in another file that Capsule does not see (a file
// compiled without -flto, or a regular object in an LTO link) have no
// shadow here. A differentiated value stored into one, or floating-point
// data read through a pointer one holds (set to the dup argument before
// the call), lost its derivative without a word (gradient and tangent 0).
// Both are now compile-time errors naming the global, in reverse and
// forward mode. Reading such a global's own values (parameters the
// program sets) stays fine: they are constants to the derivative.
// RUN: %clang -O2 -c -DDEFINITIONS %s -o %t.defs.o
// RUN: not %clang -O2 -g %capsule_cflags -DSTORE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not %clang -O0 -g %capsule_cflags -DSTORE -DFORWARD -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not %clang -O2 -g %capsule_cflags -DTHROUGH -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=THROUGH
// RUN: not %clang -O0 -g %capsule_cflags -DTHROUGH -DFORWARD -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=THROUGH
// RUN: %clang -O2 -g %capsule_cflags %s %t.defs.o -o %t %capsule_ldflags && %t
// RUN: %clang -O0 -g %capsule_cflags %s %t.defs.o -o %t0 %capsule_ldflags && %t0
#ifdef DEFINITIONS
double buf[2];
double *params;
double scale = 1.5;
#else
#include <capsule/capsule.h>
#include <math.h>

#include "../include/check.h"

extern double buf[2];
extern double *params;
extern double scale;

#if defined(STORE)
__attribute__((noinline)) void put(const double *x) {
  // STORE: external-globals.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'put': differentiated value stored into 'buf', a global defined in another file (only declared here)
  buf[0] = x[0];
  buf[1] = 2 * x[0];
}
double f(const double *x) {
  put(x);
  return buf[0] * buf[1];
}
#elif defined(THROUGH)
double f(const double *x) {
  (void)x;
  // THROUGH: external-globals.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': floating-point data accessed through a pointer held by 'params', a global defined in another file
  return params[0] * params[1];
}
#else
double f(const double *x) { return scale * x[0] * x[1]; }
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}
#endif

#if defined(STORE) || defined(THROUGH)
#ifdef FORWARD
double tangent(double *x, double *v) {
  return __capsule_fwddiff((void *)f, x, v);
}
#else
void gradient(double *x, double *dx) { __capsule_autodiff((void *)f, x, dx); }
#endif
#else
int main(void) {
  double x[2] = {0.7, -1.3}, dx[2] = {0, 0}, v[2] = {0.5, 2.0};
  __capsule_autodiff((void *)f, x, dx);
  check_grad_fd("gradient", dx, f_fd, NULL, x, 2);
  check_close("tangent", __capsule_fwddiff((void *)f, x, v),
              check_fd_along(f_fd, NULL, x, v, 2), CHECK_FD_RTOL,
              CHECK_FD_ATOL);
  return check_report();
}
#endif
#endif
