// capsule_dupnoneed on an output array (its primal values are not needed after the call): dx = J^T w.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

void f(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[(i + 1) % n] + tanh(x[i]);
}

/* Also returns a value that reads the output it wrote. */
double g(const double *x, double *y, int n) {
  f(x, y, n);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += y[i] * y[i];
  return s;
}

enum { N = 4 };
static const double W[N] = {1.5, -0.5, 0.25, 2.0};
static double wf_fd(double *x, void *ctx) {
  double y[N], r = 0.0;
  if (ctx)
    r = g(x, y, N);
  else
    f(x, y, N);
  for (int i = 0; i < N; i++)
    r += W[i] * y[i];
  return r;
}

int main(void) {
  double x[N] = {0.3, -0.9, 0.7, 1.2};
  double dx[N] = {0}, y[N], dy[N];
  memcpy(dy, W, sizeof W);
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_dupnoneed, y,
                       dy, capsule_const, N);
  check_grad_fd("f: dx", dx, wf_fd, 0, x, N);

  double dx2[N] = {0}, y2[N], dy2[N];
  memcpy(dy2, W, sizeof W);
  __capsule_autodiff_v((void *)g, capsule_dup, x, dx2, capsule_dupnoneed, y2,
                       dy2, capsule_const, N);
  check_grad_fd("g: dx", dx2, wf_fd, (void *)1, x, N);
  return check_report();
}
