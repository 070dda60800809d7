// Aliasing: the same array passed as two dup arguments with the same shadow (both contributions accumulate), an in-place axpy with y == x, and a scalar dup through a pointer.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[(i + 1) % n] + sin(a[i]) * b[i];
  return s;
}

void axpy(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

double g(double *p) { return *p * *p * sin(*p); }

enum { N = 4 };
static double ff_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, x, N);
}

int main(void) {
  double x[N] = {0.7, -0.4, 1.2, 0.3}, dx[N] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_dup, x, dx,
                       capsule_const, N);
  check_grad_fd("f(x, x): dx", dx, ff_fd, 0, x, N);

  /* y == x: x_final = (1 + a) x; seeds w on x_final */
  const double w[N] = {0.5, -1.0, 2.0, 0.25};
  double y[N], dy[N], a = 0.6, da_cf = 0.0;
  memcpy(y, x, sizeof x);
  memcpy(dy, w, sizeof w);
  for (int i = 0; i < N; i++)
    da_cf += w[i] * x[i];
  double da = __capsule_autodiff((void *)axpy, capsule_dup, y, dy, capsule_dup,
                                 y, dy, capsule_out, a, capsule_const, N);
  check_cf("axpy aliased: da", da, da_cf);
  for (int i = 0; i < N; i++) {
    char name[48];
    snprintf(name, sizeof name, "axpy aliased: dx[%d]", i);
    check_cf(name, dy[i], (1.0 + a) * w[i]);
    snprintf(name, sizeof name, "axpy aliased: primal x[%d]", i);
    check_cf(name, y[i], (1.0 + a) * x[i]);
  }

  double p = 1.3, dp = 0.0;
  __capsule_autodiff_v((void *)g, capsule_dup, &p, &dp);
  check_cf("scalar through pointer", dp, 2 * p * sin(p) + p * p * cos(p));
  return check_report();
}
