// Doubles copied through integers of the same size, as type-punning C code does it: memcpy into an int64_t, then a store through an int64_t pointer into double memory; a union written as double and copied as int64_t; an int64_t array element moved into a double array. Each copy carries the double's derivative, at every optimization level.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

/* x[1] = x[0] through an int64_t, then a union round trip of x[0] * x[2]. */
double punned(double *x) {
  int64_t bits;
  memcpy(&bits, &x[0], sizeof bits);
  *(int64_t *)&x[1] = bits;
  union {
    double d;
    int64_t i;
  } a, b;
  a.d = x[0] * x[2];
  b.i = a.i;
  return x[1] * x[1] + sin(b.d) + x[0];
}

enum { N = 3 };
static double fd(double *x, void *ctx) {
  (void)ctx;
  return punned(x);
}

int main(void) {
  double x[N] = {0.7, 5.0, -1.3}, x0[N], dx[N] = {0};
  memcpy(x0, x, sizeof x);
  __capsule_autodiff_v((void *)punned, capsule_dup, x, dx);
  check_grad_fd("punned copies", dx, fd, 0, x0, N);
  double c = cos(x0[0] * x0[2]);
  check_cf("d/dx0", dx[0], 2 * x0[0] + c * x0[2] + 1.0);
  check_cf("d/dx1 (overwritten)", dx[1], 0.0);
  check_cf("d/dx2", dx[2], c * x0[0]);
  return check_report();
}
