// Enzyme spellings with no activity markers at all: pointer args are dup (shadow follows), doubles are out, ints are const.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include "include/check.h"

double __enzyme_autodiff(void *, ...);

double f(const double *x, int n, double a) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += sin(a * x[i]) * x[i];
  return s + a * a;
}

enum { N = 4 };
static double A = 0.9;
static double X[N] = {0.5, -1.3, 0.8, 1.1};
static double x_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, N, A);
}
static double a_fd(double a) { return f(X, N, a); }

int main(void) {
  double dx[N] = {0}, cf[N], ca = 2.0 * A;
  for (int i = 0; i < N; i++) {
    cf[i] = cos(A * X[i]) * A * X[i] + sin(A * X[i]);
    ca += cos(A * X[i]) * X[i] * X[i];
  }
  double da = __enzyme_autodiff((void *)f, X, dx, N, A);
  check_grad_cf_fd("dx", dx, cf, x_fd, 0, X, N);
  check_scalar("da", da, a_fd, A, ca);
  return check_report();
}
