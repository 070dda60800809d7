// Double + - * / and negation on dup array elements; explicit capsule_dup and unmarked pointers (default dup) agree.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x) {
  double u = x[0] * x[1] - x[2] / x[3];
  double v = x[0] + x[3];
  double w = x[1] * x[1] / (x[2] + 2.0);
  return u * v - w + -(x[0] * x[3]);
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  double x[4] = {1.3, -0.7, 2.1, 0.9};
  double dx[4] = {0, 0, 0, 0}, dx2[4] = {0, 0, 0, 0};
  double u = x[0] * x[1] - x[2] / x[3], v = x[0] + x[3];
  double cf[4] = {
      x[1] * v + u - x[3],
      x[0] * v - 2.0 * x[1] / (x[2] + 2.0),
      -v / x[3] + x[1] * x[1] / ((x[2] + 2.0) * (x[2] + 2.0)),
      x[2] / (x[3] * x[3]) * v + u - x[0],
  };

  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_cf_fd("dup dx", dx, cf, f_fd, 0, x, 4);

  __capsule_autodiff_v((void *)f, x, dx2);
  check_grad_cf_fd("unmarked dx", dx2, cf, f_fd, 0, x, 4);
  return check_report();
}
