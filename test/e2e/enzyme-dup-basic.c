// Enzyme spellings without the Capsule header: enzyme_dup arrays and enzyme_const int, void-returning __enzyme_autodiff marker.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include "include/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
void __enzyme_autodiff_void(void *, ...);

double f(const double *x, const double *y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i] + exp(0.2 * x[i] * y[(i + 1) % n]);
  return s * s * 0.25;
}

enum { N = 4 };
/* w = [x, y] */
static double f_fd(double *w, void *ctx) {
  (void)ctx;
  return f(w, w + N, N);
}

int main(void) {
  double x[N] = {0.4, -0.7, 1.1, 0.25}, y[N] = {1.3, 0.6, -0.5, 0.9};
  double dx[N] = {0}, dy[N] = {0};
  double w[2 * N], got[2 * N];
  memcpy(w, x, sizeof x);
  memcpy(w + N, y, sizeof y);
  __enzyme_autodiff_void((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                         enzyme_const, N);
  memcpy(got, dx, sizeof dx);
  memcpy(got + N, dy, sizeof dy);
  check_grad_fd("d[x, y]", got, f_fd, 0, w, 2 * N);
  return check_report();
}
