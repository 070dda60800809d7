// select on doubles (c ? a : b), in a loop and between pointers; both branches taken at two evaluation points.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x, int n) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    acc += v > 0.0 ? v * v : -0.5 * v * v * v;
  }
  double a = x[0] < x[1] ? x[0] * x[1] : x[1] - x[0];
  const double *p = x[2] > x[3] ? &x[2] : &x[3];
  double m = x[4] > 1.5 ? x[4] : 3.0 - x[4];
  return acc + a + *p * sin(*p) + m * x[0];
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 5;
  /* Point A: x0 >= x1, x2 > x3, x4 > 1.5; point B: the other branches. No
   * comparison is within 0.3 of flipping. */
  double xa[5] = {0.9, -1.2, 1.6, -0.4, 2.0};
  double xb[5] = {-0.7, 0.5, -0.3, 0.8, 1.1};
  double dxa[5] = {0}, dxb[5] = {0};
  double cfa[5] = {2 * 0.9 - 1.0 + 2.0, -1.5 * 1.44 + 1.0,
                   2 * 1.6 + sin(1.6) + 1.6 * cos(1.6), -1.5 * 0.16,
                   2 * 2.0 + 0.9};
  __capsule_autodiff_v((void *)f, capsule_dup, xa, dxa, capsule_const, n);
  check_grad_cf_fd("point A dx", dxa, cfa, f_fd, &n, xa, 5);
  __capsule_autodiff_v((void *)f, capsule_dup, xb, dxb, capsule_const, n);
  check_grad_fd("point B dx", dxb, f_fd, &n, xb, 5);
  return check_report();
}
