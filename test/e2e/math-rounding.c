// floor, ceil, round, trunc have zero derivative: x*floor(x) has derivative floor(x).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x) {
  return x[0] * floor(x[0]) + ceil(x[1]) * x[1] * x[1] +
         round(x[2]) * sin(x[2]) + trunc(x[3]) * x[3] + floor(x[0] * x[1]);
}
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}
/* Piecewise constant: the derivative is exactly 0. */
static double f_steps(double x) { return floor(x) + 2.0 * ceil(x) - round(x * 3.0); }

int main(void) {
  /* All arguments well inside their steps. */
  double x[4] = {2.3, -1.6, 2.7, -3.4};
  double dx[4] = {0, 0, 0, 0};
  double cf[4] = {2.0, 2.0 * -1.0 * x[1], 3.0 * cos(x[2]), -3.0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, 4);

  double y = 1.45;
  check_close("d/dx of a step function",
              __capsule_autodiff((void *)f_steps, capsule_out, y), 0.0, 0.0,
              0.0);
  return check_report();
}
