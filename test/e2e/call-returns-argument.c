// Callees that return one of their arguments (a double, a pointer): at -O2 clang marks that parameter `returned`, which the derivatives, returning {result, tangent or shadow}, must drop (the compiler stopped with "invalid code generated ... 'returned' attribute" in both modes; capsule-fuzz long run, seed 1214). Reverse and forward mode against the closed form and finite differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <capsule/capsule.h>
#include "check.h"

__attribute__((noinline)) static double keep(double *x, double a) {
  x[0] = a * a;
  return a;
}
__attribute__((noinline)) static double *same(double *x, double a) {
  x[1] = a * x[0];
  return x;
}
/* f = (a^3) a + a^2 = a^4 + a^2 */
static double f(double *x, double a) {
  double b = keep(x, a);
  double *y = same(x, b);
  return y[1] * b + y[0];
}
static double f_of_a(double a) {
  double x[2] = {0.5, 0.25};
  return f(x, a);
}

int main(void) {
  double a = 0.7, want = 4 * a * a * a + 2 * a;
  double x[2] = {0.5, 0.25}, dx[2] = {0}, t[2] = {0, 0};
  check_scalar("reverse", __capsule_autodiff((void *)f, capsule_dup, x, dx, a),
               f_of_a, a, want);
  x[0] = 0.5;
  x[1] = 0.25;
  check_scalar("forward",
               __capsule_fwddiff((void *)f, capsule_dup, x, t, a, 1.0), f_of_a,
               a, want);
  check_cf("forward: tangent of x[0]", t[0], 2 * a);
  return check_report();
}
