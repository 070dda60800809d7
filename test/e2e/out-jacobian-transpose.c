// Output through pointers: void f(const double *x, double *y) with dy seeded with weights gives dx = J^T w and consumes the seed; a function that also returns a value.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

void f(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = sin(x[1]) + x[2] * x[2];
  y[2] = exp(0.5 * x[0]) * x[2];
  y[3] = x[0] - x[1] * x[2];
}

double g(const double *x, double *y) {
  f(x, y);
  return y[0] * y[3];
}

static const double W[4] = {0.5, -1.5, 2.0, 0.75};
static double wf_fd(double *x, void *ctx) {
  double y[4], r = 0.0;
  if (ctx)
    r = g(x, y);
  else
    f(x, y);
  for (int i = 0; i < 4; i++)
    r += W[i] * y[i];
  return r;
}

int main(void) {
  double x[3] = {0.8, -0.6, 1.3}, dx[3] = {0};
  double y[4] = {0}, dy[4], want_y[4];
  memcpy(dy, W, sizeof W);
  f(x, want_y);
  /* J^T w */
  double e = exp(0.5 * x[0]);
  double cf[3] = {W[0] * x[1] + W[2] * 0.5 * e * x[2] + W[3],
                  W[0] * x[0] + W[1] * cos(x[1]) - W[3] * x[2],
                  W[1] * 2 * x[2] + W[2] * e - W[3] * x[1]};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_dup, y, dy);
  check_grad_cf_fd("f: dx = J^T w", dx, cf, wf_fd, 0, x, 3);
  for (int i = 0; i < 4; i++) {
    char name[48];
    snprintf(name, sizeof name, "f: primal y[%d]", i);
    check_cf(name, y[i], want_y[i]);
    /* y was only written: its value on entry has no influence */
    snprintf(name, sizeof name, "f: dy[%d] after (seed consumed)", i);
    check_close(name, dy[i], 0.0, 0, 0);
  }

  double dx2[3] = {0}, y2[4] = {0}, dy2[4];
  memcpy(dy2, W, sizeof W);
  __capsule_autodiff_v((void *)g, capsule_dup, x, dx2, capsule_dup, y2, dy2);
  check_grad_fd("g: dx = J^T (w + dret/dy)", dx2, wf_fd, (void *)1, x, 3);
  return check_report();
}
