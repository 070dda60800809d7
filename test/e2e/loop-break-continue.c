// Loops with continue (skip on data) and break (exit when a running value crosses a threshold); elements after the break get zero gradient.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0.0)
      continue;
    s += x[i] * x[i] * (i + 1);
    if (s > 10.0)
      break;
  }
  int j = 0;
  double p = 1.0;
  for (;;) {
    p *= 1.0 + 0.5 * x[j];
    if (++j >= n || p > 3.0)
      break;
  }
  return s * p + sin(s);
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 8;
  /* s: 1.21, skip, 3.64, 15.2 > 10: break after x3. p: 1.55, 1.1625, 1.686,
   * 3.118 > 3: break after x3. Both thresholds are crossed with margin. */
  double x[8] = {1.1, -0.5, 0.9, 1.7, -2.0, 2.5, 0.6, 1.0};
  double dx[8] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 8);
  return check_report();
}
