// libm sinh, cosh, tanh on a dup array (including a saturating tanh argument) and on out scalars.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x) {
  return sinh(x[0]) * cosh(x[1]) + tanh(x[2] * x[0]) + tanh(x[3]);
}
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}
static double f_ratio(double x) { return sinh(x) / cosh(2.0 * x); }

int main(void) {
  double x[4] = {0.6, -0.9, 1.4, 4.0};
  double dx[4] = {0, 0, 0, 0};
  double t = tanh(x[2] * x[0]), s2 = 1 - t * t, t3 = tanh(x[3]);
  double cf[4] = {cosh(x[0]) * cosh(x[1]) + s2 * x[2],
                  sinh(x[0]) * sinh(x[1]), s2 * x[0], 1 - t3 * t3};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, 4);

  double y = 0.45;
  double c = (cosh(y) * cosh(2 * y) - sinh(y) * 2 * sinh(2 * y)) /
             (cosh(2 * y) * cosh(2 * y));
  check_scalar("sinh(x)/cosh(2x)",
               __capsule_autodiff((void *)f_ratio, capsule_out, y), f_ratio, y,
               c);
  return check_report();
}
