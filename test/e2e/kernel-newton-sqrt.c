// Kernel: Newton iterations for sqrt with a data-dependent stopping test (and a break); the converged derivative equals 1/(2 sqrt(a)).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double newton_sqrt(double a) {
  double x = a > 1.0 ? a : 1.0;
  for (int it = 0; it < 100; it++) {
    double nx = 0.5 * (x + a / x);
    if (fabs(nx - x) <= 1e-15 * nx) {
      x = nx;
      break;
    }
    x = nx;
  }
  return x;
}

double weighted_roots(const double *a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += newton_sqrt(a[i]) * (i + 1);
  return s;
}

static double wr_fd(double *a, void *ctx) { return weighted_roots(a, *(int *)ctx); }

int main(void) {
  /* quadratic convergence: the last iterate and its derivative are exact to
   * rounding, so the closed form of the exact sqrt applies */
  double a = 7.3;
  check_scalar("d newton_sqrt(7.3)",
               __capsule_autodiff((void *)newton_sqrt, capsule_out, a),
               newton_sqrt, a, 0.5 / sqrt(a));
  int n = 5;
  double v[5] = {0.3, 2.0, 17.5, 0.05, 150.0}, dv[5] = {0}, cf[5];
  for (int i = 0; i < n; i++)
    cf[i] = (i + 1) * 0.5 / sqrt(v[i]);
  __capsule_autodiff_v((void *)weighted_roots, capsule_dup, v, dv, capsule_const, n);
  check_grad_cf_fd("dv", dv, cf, wr_fd, &n, v, 5);
  return check_report();
}
