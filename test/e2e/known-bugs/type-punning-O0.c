// A double copied through an int64_t pointer at -O0: the copy's derivative is lost (store bits); fast inverse square root's bit trick is ignored rather than refused as at -O2.
// Known wrong (issue 15, item 3): XFAIL until fixed; lit reports an
// unexpected pass the day it is, and then this line and XFAIL go.
// XFAIL: *
// RUN: %clang -O0 -g %capsule_cflags %s -o %t %capsule_ldflags -lm && %t
#include <stdint.h>
#include <string.h>
#include <capsule/capsule.h>
#include "check.h"
float Q_rsqrt(float number) {
  long i; float x2, y; const float threehalfs = 1.5F;
  x2 = number * 0.5F; y = number;
  i = *(long *)&y;   /* 64-bit long: reads y and garbage? use int32 */
  return y;
}
double rsq(double x) {
  double y = x;
  int64_t i = *(int64_t *)&y;
  i = 0x5fe6eb50c7b537a9 - (i >> 1);
  y = *(double *)&i;
  y = y * (1.5 - 0.5 * x * y * y);
  y = y * (1.5 - 0.5 * x * y * y);
  return y;
}
double store_bits(double *x) {
  int64_t tmp;
  memcpy(&tmp, &x[0], 8);
  int64_t *p = (int64_t *)&x[1];
  *p = tmp;                       /* x[1] = x[0] through int64 */
  return x[1] * x[1] + x[0];
}
double viaunion(double a) {
  union { double d; int64_t i; } u;
  u.d = a * a;
  int64_t k = u.i;
  u.i = k;
  return u.d + a;
}
static double fd1(double *x, void *c) { return rsq(x[0]); }
static double fd2(double *x, void *c) { double t[2] = {x[0], 0}; return store_bits(t); }
static double fd3(double *x, void *c) { return viaunion(x[0]); }
void __capsule_autodiff_v(void *, ...);
int main() {
  double x = 2.0;
  double d = __capsule_autodiff((void *)rsq, x);
  check_grad_fd("fisr (bits give constant seed, newton steps derivative)", &d, fd1, 0, &x, 1);
  double v[2] = {0.7, 0.0}, dv[2] = {0}, v0[2] = {0.7, 0};
  __capsule_autodiff_v((void *)store_bits, capsule_dup, v, dv);
  check_grad_fd("store bits", dv, fd2, 0, v0, 1);
  double a = 0.9;
  double da = __capsule_autodiff((void *)viaunion, a);
  check_grad_fd("union", &da, fd3, 0, &a, 1);
  return check_report();
}
