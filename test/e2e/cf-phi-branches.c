// if/else-if chains and early returns merging values (phi nodes), branches chosen by data and by the loop index.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double piece(double v) {
  if (v < -1.0)
    return -v * v;
  if (v < 1.0) {
    double t = sin(v);
    return t * v + 0.5;
  }
  return exp(v - 1.0) * v;
}

double f(const double *x, int n) {
  double s = 0.0, prod = 1.0;
  for (int i = 0; i < n; i++) {
    double v = x[i], t;
    if (v < -1.0)
      t = -v * v;
    else if (v < 1.0)
      t = sin(v) * v + 0.5;
    else
      t = exp(v - 1.0) * v;
    if (i % 2)
      s += t;
    else
      prod *= 1.0 + 0.25 * t;
  }
  return s * prod + piece(0.1 * s);
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 6;
  /* Each region of the chain is hit; every input is >= 0.3 from -1 and 1. */
  double x[6] = {-1.7, 0.4, 2.2, -0.3, 1.3, -2.5};
  double dx[6] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 6);
  return check_report();
}
