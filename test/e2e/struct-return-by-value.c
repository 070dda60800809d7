// Structs returned by value from helpers: {double, double} (in registers) and a 5-double struct (sret), in a loop.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

typedef struct { double re, im; } Complex;
typedef struct { double a, b, c, d, e; } Five;

__attribute__((noinline)) static Complex cmake(double re, double im) {
  Complex z = {re, im};
  return z;
}

__attribute__((noinline)) static Complex csq_plus(const Complex *z,
                                                   const Complex *c) {
  Complex r = {z->re * z->re - z->im * z->im + c->re,
               2.0 * z->re * z->im + c->im};
  return r;
}

__attribute__((noinline)) static Five moments(const double *x, int n) {
  Five f = {0, 0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    f.a += x[i];
    f.b += x[i] * x[i];
    f.c += x[i] * x[i] * x[i];
    f.d += sin(x[i]);
    f.e += x[i] * i;
  }
  return f;
}

double f(const double *x, int n) {
  Complex c = cmake(x[0], x[1]);
  Complex z = cmake(0.0, 0.0);
  for (int k = 0; k < 4; k++)
    z = csq_plus(&z, &c);
  Five m = moments(x, n);
  return z.re * z.im + m.a * m.b - m.c + m.d * m.e;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 5;
  double x[5] = {0.3, -0.45, 0.8, -1.2, 0.6};
  double dx[5] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 5);
  return check_report();
}
