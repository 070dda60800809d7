// Chains of calls to functions in the same file: static and non-static, noinline and always_inline, a helper writing to a caller's stack array, the same helper called with different arguments.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double sq(double v) { return v * v; }

double poly2(double a, double b) { return a * a * b + sin(b); }

static void affine(double *out, const double *in, const double *w, int n) {
  for (int i = 0; i < n; i++)
    out[i] = w[i] * in[i] + sq(in[(i + 1) % n]);
}

__attribute__((noinline)) double dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

__attribute__((always_inline)) static inline double squash(double v) {
  return v / (1.0 + sq(v));
}

double f(const double *x, const double *w, int n) {
  double y[4];
  affine(y, x, w, n);
  double r = dot(y, x, n) + poly2(squash(y[0]), y[1]);
  r += poly2(x[2], squash(x[3])); /* same helper, other arguments */
  return r * 0.5 + sq(r) * 0.01;
}

static const double W[4] = {0.5, -1.5, 2.0, 0.25};
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, W, 4);
}

int main(void) {
  double x[4] = {0.3, -0.8, 1.1, 0.6};
  double dx[4] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, W,
                       capsule_const, 4);
  check_grad_fd("dx", dx, f_fd, 0, x, 4);
  return check_report();
}
