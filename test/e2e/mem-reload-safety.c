// Values the reverse sweep may load again instead of taping must really be
// unchanged by then: loads followed by writes through an aliasing argument,
// through the same pointer, or through memory freed and reallocated, must be
// taped. Each case is checked against finite differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

/* y may alias x: the write through y changes x[0] after it was read. */
__attribute__((noinline)) double through_alias(double *x, double *y) {
  double a = x[0] * x[1];
  y[0] = 3.0 * a;
  return sin(a) * x[0] + y[0] * x[1];
}

/* The argument's own memory is updated in place inside a loop. */
double in_place(double *x, int n) {
  double s = 0;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < n; i++) {
      s += x[i] * x[i];
      x[i] = cos(x[i]) + 0.1 * s;
    }
  return s;
}

/* Only read: may be reloaded; the gradient must be the same either way. */
double read_only(const double *x, int n) {
  double *t = malloc(n * sizeof *t), s = 0;
  for (int i = 0; i < n; i++)
    t[i] = exp(x[i]) * x[(i + 1) % n];
  for (int i = 0; i < n; i++)
    s += t[i] * x[i];
  free(t);
  return s;
}

static double alias_fd(double *x, void *ctx) {
  (void)ctx;
  double c[2] = {x[0], x[1]};
  return through_alias(c, c);
}
static double in_place_fd(double *x, void *ctx) {
  double c[4];
  for (int i = 0; i < 4; i++)
    c[i] = x[i];
  return in_place(c, *(int *)ctx);
}
static double read_only_fd(double *x, void *ctx) {
  return read_only(x, *(int *)ctx);
}

int main(void) {
  double x[2] = {0.4, -1.2}, dx[2] = {0, 0};
  double fresh[2] = {0.4, -1.2};
  __capsule_autodiff_v((void *)through_alias, capsule_dup, x, dx, capsule_dup,
                       x, dx);
  check_grad_fd("aliased args", dx, alias_fd, 0, fresh, 2);

  int n = 4;
  double y[4] = {0.3, -0.7, 1.1, 0.5}, dy[4] = {0}, y0[4] = {0.3, -0.7, 1.1, 0.5};
  __capsule_autodiff_v((void *)in_place, capsule_dup, y, dy, capsule_const, n);
  check_grad_fd("in place", dy, in_place_fd, &n, y0, 4);

  double z[4] = {0.3, -0.7, 1.1, 0.5}, dz[4] = {0};
  __capsule_autodiff_v((void *)read_only, capsule_dup, z, dz, capsule_const, n);
  check_grad_fd("read only", dz, read_only_fd, &n, z, 4);
  return check_report();
}
