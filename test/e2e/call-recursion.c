// Recursion: recursive power by squaring, recursive Horner polynomial, recursive sum over array halves with a nonlinear combine, recursion through an always_inline function (preprocessing, which inlines always_inline callees, leaves a function that calls itself a call).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double rpow(double x, int n) {
  if (n == 0)
    return 1.0;
  if (n % 2 == 0) {
    double h = rpow(x, n / 2);
    return h * h;
  }
  return x * rpow(x, n - 1);
}

/* c[0] + x (c[1] + x (c[2] + ...)) */
double rpoly(const double *c, int n, double x) {
  if (n == 1)
    return c[0];
  return c[0] + x * rpoly(c + 1, n - 1, x);
}

static double rsum(const double *a, int lo, int hi) {
  if (hi - lo == 1)
    return sin(a[lo]) + 0.5 * a[lo] * a[lo];
  int mid = (lo + hi) / 2;
  double l = rsum(a, lo, mid), r = rsum(a, mid, hi);
  return l + r + 0.1 * l * r;
}

double rsum_all(const double *a, int n) { return rsum(a, 0, n); }

__attribute__((always_inline)) static inline double rtri(double x, int n) {
  return n == 0 ? x : x * 0.5 + rtri(sin(x), n - 1);
}
static double rtri5(double x) { return rtri(x, 5); }

static double rpow7(double x) { return rpow(x, 7); }
static double C[5] = {1.5, -0.5, 0.25, 2.0, -0.75};
static double rpoly_x(double x) { return rpoly(C, 5, x); }
static double rsum_fd(double *a, void *ctx) { return rsum_all(a, *(int *)ctx); }

int main(void) {
  double x = 1.15;
  check_scalar("rpow(x,7)",
               __capsule_autodiff((void *)rpow, capsule_out, x, capsule_const, 7),
               rpow7, x, 7.0 * pow(x, 6.0));

  double dc[5] = {0}, cfc[5], cfx = 0.0;
  x = -0.8;
  double gx = __capsule_autodiff((void *)rpoly, capsule_dup, C, dc,
                                 capsule_const, 5, capsule_out, x);
  for (int i = 0; i < 5; i++) {
    cfc[i] = pow(x, i);
    if (i)
      cfx += i * C[i] * pow(x, i - 1);
  }
  check_vec_cf("rpoly dc", dc, cfc, 5);
  check_scalar("rpoly dx", gx, rpoly_x, x, cfx);

  int n = 7; /* uneven halves */
  double a[7] = {0.2, -0.5, 0.9, 1.3, -1.1, 0.4, 0.7};
  double da[7] = {0};
  __capsule_autodiff_v((void *)rsum_all, capsule_dup, a, da, capsule_const, n);
  check_grad_fd("rsum da", da, rsum_fd, &n, a, 7);
  x = 0.9;
  check_close("always_inline recursion", __capsule_autodiff((void *)rtri5, x),
              check_fd1(rtri5, x), CHECK_FD_RTOL, CHECK_FD_ATOL);
  return check_report();
}
