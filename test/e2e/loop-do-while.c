// do-while loops: a counted one (Horner-like recurrence) and one whose trip count depends on an input.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x, int n) {
  double s = 0.0;
  int i = 0;
  do {
    s = s * x[0] + x[1] * (i + 1);
    i++;
  } while (i < n);

  /* v = x2 0.7^k until v <= 0.05: 10 steps for x2 = 1.3 */
  double v = x[2], acc = 0.0;
  do {
    v *= 0.7;
    acc += v * x[1] + v * v;
  } while (v > 0.05);
  return s + acc;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 5;
  /* last v = 0.0367 after 0.0525: 5% away from the threshold */
  double x[3] = {0.9, -0.6, 1.3};
  double dx[3] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 3);
  return check_report();
}
