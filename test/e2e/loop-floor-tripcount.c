// Trip counts that depend on input values: (int)floor(3*x0) iterations, and a loop over a double counter bounded by x2.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x) {
  int m = (int)floor(3.0 * x[0]);
  double p = x[0];
  for (int k = 0; k < m; k++)
    p *= 1.0 + x[1] / (k + 1.0);
  double q = 0.0;
  for (double t = 0.0; t < x[2]; t += 0.25)
    q += x[1] * t + sin(x[2] * t);
  return p + q;
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  /* 3 x0 = 6.6: 6 iterations; t = 0, 0.25, .., 1.0 < 1.1: 5 iterations. */
  double x[3] = {2.2, 0.35, 1.1};
  double dx[3] = {0};
  double p = x[0], dp1 = 0.0, q_x1 = 0.0, q_x2 = 0.0;
  for (int k = 0; k < 6; k++) {
    p *= 1.0 + x[1] / (k + 1.0);
    dp1 += (1.0 / (k + 1.0)) / (1.0 + x[1] / (k + 1.0));
  }
  for (int k = 0; k < 5; k++) {
    double t = 0.25 * k;
    q_x1 += t;
    q_x2 += t * cos(x[2] * t);
  }
  /* p = x0 prod(1 + x1/(k+1)): dp/dx0 = p/x0, dp/dx1 = p sum 1/(k+1+x1) */
  double cf[3] = {p / x[0], p * dp1 + q_x1, q_x2};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, 3);
  return check_report();
}
