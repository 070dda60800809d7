// fmod: d/dx = 1, d/dy = -trunc(x/y) away from the jumps of the quotient.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include "include/check.h"
double f(double *x) { return fmod(x[0] * 3.0, x[1]) * x[0]; }
static double ffd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}
int main(void) {
  double x[2] = {2.3, 0.7}, dx[2] = {0};
  __capsule_autodiff((void *)f, capsule_dup, x, dx);
  check_grad_fd("dx", dx, ffd, 0, x, 2);
  return check_report();
}
