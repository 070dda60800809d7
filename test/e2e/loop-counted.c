// Counted loops: Horner evaluation (dup coefficients, const int length, out scalar x) and a count-down loop with stride 2.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

/* sum_i c[i] x^i */
double horner(const double *c, int n, double x) {
  double r = 0.0;
  for (int i = n - 1; i >= 0; i--)
    r = r * x + c[i];
  return r;
}

double strided(const double *x, int n) {
  double s = 0.0;
  for (int i = n - 1; i >= 1; i -= 2)
    s += x[i] * x[i - 1] + cos(x[i]);
  return s;
}

static double C[6] = {0.5, -1.25, 0.75, 2.0, -0.4, 0.3};
static double X = 1.3;
static double horner_x(double x) { return horner(C, 6, x); }
static double strided_fd(double *x, void *ctx) { return strided(x, *(int *)ctx); }

int main(void) {
  double dc[6] = {0};
  double dxh = __capsule_autodiff((void *)horner, capsule_dup, C, dc,
                                  capsule_const, 6, capsule_out, X);
  double cfc[6], cfx = 0.0;
  for (int i = 0; i < 6; i++) {
    cfc[i] = pow(X, i);
    if (i > 0)
      cfx += i * C[i] * pow(X, i - 1);
  }
  check_vec_cf("dc", dc, cfc, 6);
  check_scalar("dx", dxh, horner_x, X, cfx);

  int n = 7; /* odd: x[0] is not used */
  double x[7] = {9.0, 0.4, -1.1, 0.8, 1.9, -0.6, 0.35};
  double dx[7] = {0};
  __capsule_autodiff_v((void *)strided, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("strided dx", dx, strided_fd, &n, x, 7);
  return check_report();
}
