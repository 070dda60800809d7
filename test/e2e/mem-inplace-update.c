// f updates its input array in place and returns a value; dx holds the gradient with respect to the values on entry, with the initial dx as the seed of the final values.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(double *x, int n) {
  for (int sweep = 0; sweep < 2; sweep++)
    for (int i = 0; i < n; i++)
      x[i] = sin(x[i]) + 0.5 * x[(i + n - 1) % n] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * (i + 1);
  return s;
}

enum { N = 5 };
static const double W[N] = {0.5, -1.0, 2.0, 0.25, -0.75};
/* Return value only (x's final values seeded with 0). */
static double ret_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }
/* Return value plus W . x_final (x's final values seeded with W). */
static double composite_fd(double *x, void *ctx) {
  double r = f(x, *(int *)ctx);
  for (int i = 0; i < N; i++)
    r += W[i] * x[i];
  return r;
}

int main(void) {
  int n = N;
  const double x0[N] = {0.6, -0.4, 1.1, 0.3, -0.9};
  double x[N], dx[N] = {0}, want_x[N];
  memcpy(want_x, x0, sizeof x0);
  f(want_x, n); /* the primal's effect on x */

  memcpy(x, x0, sizeof x0);
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx (seed 0)", dx, ret_fd, &n, x0, N);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "primal x[%d] updated", i);
    check_cf(name, x[i], want_x[i]);
  }

  memcpy(x, x0, sizeof x0);
  memcpy(dx, W, sizeof W);
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx (seed W)", dx, composite_fd, &n, x0, N);
  return check_report();
}
