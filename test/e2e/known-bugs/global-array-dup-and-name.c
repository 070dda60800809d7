// A global array passed as a dup argument and also read by its name inside: only one path reaches the shadow (half the gradient).
// Known wrong (issue 15, item 2): XFAIL until fixed; lit reports an
// unexpected pass the day it is, and then this line and XFAIL go.
// XFAIL: *
// RUN: %clang -O2 -g %capsule_cflags %s -o %t %capsule_ldflags -lm && %t
#include <capsule/capsule.h>
#include "check.h"
double G[3] = {0.5, 1.5, -0.7};
double f(double *a) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += a[i] * G[i] + sin(G[i]) * a[i];
  return s;
}
static double fd(double *x, void *c) { double save[3]; memcpy(save, G, sizeof G); memcpy(G, x, sizeof G); double r = f(G); memcpy(G, save, sizeof G); return r; }
void __capsule_autodiff_v(void *, ...);
int main() {
  double dG[3] = {0};
  double x0[3]; memcpy(x0, G, sizeof G);
  __capsule_autodiff_v((void *)f, capsule_dup, G, dG);
  check_grad_fd("global alias", dG, fd, 0, x0, 3);
  return check_report();
}
