// Enzyme spellings: enzyme_const on a double pointer and on a double scalar, mixed with enzyme_dup and enzyme_out.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include "include/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);

double f(const double *data, double scale, const double *theta, double bias, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double r = theta[0] * data[i] + theta[1] * data[i] * data[i] + bias - scale;
    s += r * r;
  }
  return s / n;
}

enum { N = 6 };
static const double D[N] = {-1.0, -0.5, 0.1, 0.6, 1.2, 1.7};
static double SCALE = 0.3, BIAS = 0.15;
static double theta_fd(double *t, void *ctx) {
  (void)ctx;
  return f(D, SCALE, t, BIAS, N);
}
static double THETA[2] = {0.8, -0.35};
static double bias_fd(double b) { return f(D, SCALE, THETA, b, N); }

int main(void) {
  double dtheta[2] = {0};
  double db = __enzyme_autodiff((void *)f, enzyme_const, D, enzyme_const, SCALE,
                                enzyme_dup, THETA, dtheta, enzyme_out, BIAS,
                                enzyme_const, N);
  double cf[2] = {0, 0}, cb = 0.0;
  for (int i = 0; i < N; i++) {
    double r = THETA[0] * D[i] + THETA[1] * D[i] * D[i] + BIAS - SCALE;
    cf[0] += 2.0 * r * D[i] / N;
    cf[1] += 2.0 * r * D[i] * D[i] / N;
    cb += 2.0 * r / N;
  }
  check_grad_cf_fd("dtheta", dtheta, cf, theta_fd, 0, THETA, 2);
  check_scalar("dbias", db, bias_fd, BIAS, cb);
  return check_report();
}
