// fabs (both signs), fmin/fmax (either argument chosen), copysign (derivative only through the magnitude).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x) {
  double r = fabs(x[0]) * x[1];
  double m = fmin(x[0], x[1]);
  r += m * m;
  r += fmax(x[2], x[0] * x[1]);
  r += copysign(x[3], x[0]) * x[3];
  r += copysign(2.0, x[3]) * x[1];
  r += fmin(x[3], x[2]) * x[1];
  r += fmax(x[1], x[3]) * x[3];
  r += fabs(x[3]) * x[2];
  return r;
}
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  /* No ties: every min/max/abs is at least 0.5 away from its kink. */
  double x[4] = {-0.8, 1.3, 0.2, 0.7};
  double dx[4] = {0, 0, 0, 0};
  double cf[4] = {
      -x[1] + 2.0 * x[0],            /* fabs' = -1; fmin picks x0 */
      -x[0] + 2.0 + x[2] + x[3],     /* |x0|; copysign(2,x3); fmin; fmax */
      1.0 + x[1] + x[3],             /* fmax picks x2; fmin picks x2; |x3| */
      -2.0 * x[3] + x[1] + x[2],     /* copysign(x3,x0) = -x3; fmax; fabs */
  };
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, 4);
  return check_report();
}
