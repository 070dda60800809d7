// A global pointer set by the caller to the differentiated array and read inside: its shadow is null (segfault).
// Known wrong (issue 15, item 7): XFAIL until fixed; lit reports an
// unexpected pass the day it is, and then this line and XFAIL go.
// XFAIL: *
// RUN: %clang -O2 -g %capsule_cflags %s -o %t %capsule_ldflags -lm && %t
#include <capsule/capsule.h>
#include "check.h"
double *gp;
double f(double *x) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += gp[i] * gp[i] * x[i];
  return s;
}
static double fd(double *x, void *c) { double *o = gp; gp = x; double r = f(x); gp = o; return r; }
void __capsule_autodiff_v(void *, ...);
int main() {
  double x[3] = {0.7, 1.3, 0.2}, dx[3] = {0};
  double x0[3] = {0.7, 1.3, 0.2};
  gp = x;
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_fd("global ptr", dx, fd, 0, x0, 3);
  return check_report();
}
