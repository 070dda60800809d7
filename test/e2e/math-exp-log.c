// libm exp, exp2, expm1, log, log2, log10, log1p on a dup array.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x) {
  double a = exp(x[0] * x[1]) + exp2(x[1]);
  double b = expm1(x[2]) * log(x[3]);
  double c = log2(x[0] + x[3]) - log10(x[2] * x[2] + 1.0);
  double d = log1p(x[1] * x[1]) * x[0];
  return a + b + c + d;
}
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  double x[4] = {0.8, -0.35, 0.6, 2.3};
  double dx[4] = {0, 0, 0, 0};
  double e = exp(x[0] * x[1]), L2 = log(2.0), L10 = log(10.0);
  double q = x[2] * x[2] + 1.0, r = 1.0 + x[1] * x[1];
  double cf[4] = {
      e * x[1] + 1.0 / ((x[0] + x[3]) * L2) + log1p(x[1] * x[1]),
      e * x[0] + exp2(x[1]) * L2 + 2.0 * x[1] / r * x[0],
      exp(x[2]) * log(x[3]) - 2.0 * x[2] / (q * L10),
      expm1(x[2]) / x[3] + 1.0 / ((x[0] + x[3]) * L2),
  };
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, 4);
  return check_report();
}
