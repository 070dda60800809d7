// Loops whose trip count depends on the data: Taylor series until the term is negligible; fixed-point iteration until converged.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double series_exp(double x) {
  double sum = 1.0, term = 1.0;
  int k = 1;
  while (fabs(term) > 1e-17 * fabs(sum)) {
    term *= x / k;
    sum += term;
    k++;
  }
  return sum;
}

/* y = 0.5 cos(y) + a, a contraction: iterate until the update is tiny. */
static double fixed_point(double a) {
  double y = a, prev;
  int it = 0;
  do {
    prev = y;
    y = 0.5 * cos(y) + a;
  } while (fabs(y - prev) > 1e-15 && ++it < 500);
  return y;
}

double f(const double *x) {
  return series_exp(x[0]) * x[1] + series_exp(x[1] * x[0]) +
         fixed_point(x[2]) * x[0];
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  double x[3] = {0.8, 1.3, 0.6};
  double dx[3] = {0};
  double y = fixed_point(x[2]);
  /* dy/da = 1 / (1 + 0.5 sin y) at the fixed point */
  double dy = 1.0 / (1.0 + 0.5 * sin(y));
  double e1 = exp(x[1] * x[0]);
  /* the truncated series and the converged iteration are exact to rounding:
   * compare with the closed forms of the exact functions */
  double cf[3] = {exp(x[0]) * x[1] + e1 * x[1] + y, exp(x[0]) + e1 * x[0],
                  dy * x[0]};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, 3);
  return check_report();
}
