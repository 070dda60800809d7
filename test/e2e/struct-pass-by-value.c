// Structs passed by value to helpers: {double, double} (split into registers) and a 5-double struct (byval in memory), also returned by value.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

typedef struct { double re, im; } Complex;
typedef struct { double a, b, c, d, e; } Five;

__attribute__((noinline)) static double cabs2(Complex z) {
  return z.re * z.re + z.im * z.im;
}
__attribute__((noinline)) static Complex cmul(Complex a, Complex b) {
  Complex r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}
__attribute__((noinline)) static double five_dot(Five u, Five v) {
  return u.a * v.a + u.b * v.b + u.c * v.c + u.d * v.d + u.e * v.e;
}
__attribute__((noinline)) double five_energy(Five u, double s) {
  u.c *= s; /* writes to the by-value copy only */
  return s * (u.a * u.a + sin(u.b) + u.c * u.d) + exp(0.1 * u.e);
}
__attribute__((noinline)) static Five five_scale(Five u, double s) {
  u.a *= s; u.b *= s; u.c *= s; u.d *= s; u.e *= s;
  return u;
}

double f(const double *x) {
  Complex a = {x[0], x[1]}, b = {x[2], x[3]};
  Five u = {x[0], x[1], x[2], x[3], x[4]};
  Five v = {x[4], x[3] * x[3], sin(x[2]), x[1], 1.0};
  double r = cabs2(cmul(a, b)) + five_dot(u, v) + five_energy(u, x[0]);
  r += five_dot(five_scale(v, x[1]), u);
  return r + u.c; /* u itself was not changed by five_energy */
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  double x[5] = {0.7, -0.3, 1.1, 0.5, -0.9};
  double dx[5] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_fd("dx", dx, f_fd, 0, x, 5);
  return check_report();
}
