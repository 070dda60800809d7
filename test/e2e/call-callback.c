// A callback passed as an argument: Simpson quadrature of parameterised integrands, with an active integration limit (out) and dup parameters.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef double (*integrand)(double t, const double *p);

static double simpson(integrand g, const double *p, double a, double b, int m) {
  double h = (b - a) / m, s = g(a, p) + g(b, p);
  for (int i = 1; i < m; i++)
    s += (i % 2 ? 4.0 : 2.0) * g(a + i * h, p);
  return s * h / 3.0;
}

static double bump(double t, const double *p) { return p[0] * exp(-p[1] * t * t); }
static double quad(double t, const double *p) { return p[0] + p[1] * t + p[2] * t * t; }

double f(const double *p, double b) {
  return simpson(bump, p, 0.0, b, 20) + simpson(quad, p, -0.5 * b, b, 10);
}

static double B = 1.3;
static double f_p(double *p, void *ctx) {
  (void)ctx;
  return f(p, B);
}
static double P[3] = {0.8, 1.5, -0.4};
static double f_b(double b) { return f(P, b); }

int main(void) {
  double dp[3] = {0};
  double db = __capsule_autodiff((void *)f, capsule_dup, P, dp, capsule_out, B);
  check_grad_fd("dp", dp, f_p, 0, P, 3);
  check_close("db (fd)", db, check_fd1(f_b, B), CHECK_FD_RTOL, CHECK_FD_ATOL);
  return check_report();
}
