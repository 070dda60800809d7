// Constant data kept in a stack array (always, at -O0) is not active: it
// may be passed to a function without a derivative (tgamma here) while the
// active data around it is differentiated. Checkpointed, the array and the
// constant computed before the loop cross yields (the loop header is one
// with CAPSULE_ATOMIC_LOOPS=0) through the step function's record, and stay
// inactive there.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags -lm
// RUN: %check_checkpointed %clang %s %t.ck2 -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <math.h>
#include "include/check.h"

double f(const double *x, int n) {
  double weights[4];
  for (int i = 0; i < 4; i++)
    weights[i] = 1.0 + 0.5 * i; /* from integers only */
  double shift = 0.25 * n;      /* live across the loop below */
  double s = 0;
  for (int i = 0; i < n; i++)
    s += weights[i % 4] * sin(x[i % 4]) * x[(i + 1) % 4];
  double g = tgamma(weights[n % 4] + shift);
  return g * s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

void __capsule_autodiff_v(void *, ...);
int main(void) {
  int n = 6;
  double x[4] = {0.3, -0.7, 1.1, 0.5}, dx[4] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 4);
  return check_report();
}
