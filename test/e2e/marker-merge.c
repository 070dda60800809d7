// Marker calls on the two arms of a branch that differ only in the function (at -O2 SimplifyCFG may sink them into one call on a select): each computes its own function's gradient.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x) { return sin(x[0]) * x[1] + x[0] * x[0]; }
double g(const double *x) { return exp(0.5 * x[1]) * x[0] - x[1] * x[1] * x[1]; }

static double fg_fd(double *x, void *ctx) { return ctx ? g(x) : f(x); }

/* Not inlined, so the branch stays and SimplifyCFG can sink the two calls. */
__attribute__((noinline)) static void grad(int which, const double *x,
                                           double *dx) {
  if (which)
    __capsule_autodiff_v((void *)g, capsule_dup, x, dx);
  else
    __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
}

int main(void) {
  const double x[2] = {0.7, -1.1};
  for (int which = 0; which < 2; which++) {
    double dx[2] = {0, 0};
    if (which == 0)
      __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
    else
      __capsule_autodiff_v((void *)g, capsule_dup, x, dx);
    check_grad_fd(which ? "g: dx" : "f: dx", dx, fg_fd,
                  which ? (void *)1 : 0, x, 2);
  }

  for (int which = 0; which < 2; which++) {
    double dx[2] = {0, 0};
    grad(which, x, dx);
    check_grad_fd(which ? "grad(g): dx" : "grad(f): dx", dx, fg_fd,
                  which ? (void *)1 : 0, x, 2);
  }

  /* The same with the branch decided by data. */
  double dy[2] = {0, 0}, y[2] = {0.3, 0.9};
  int pick = y[0] > 0.0; /* 1 */
  if (pick)
    __capsule_autodiff_v((void *)g, capsule_dup, y, dy);
  else
    __capsule_autodiff_v((void *)f, capsule_dup, y, dy);
  check_grad_fd("picked g: dy", dy, fg_fd, (void *)1, y, 2);
  return check_report();
}
