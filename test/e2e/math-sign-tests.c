// Tests of a double's bits that only choose a branch: signbit(x) (clang reads the bits and compares them with 0, at every level) and, at -O0, isinf(x) (a mask of the bits and an equality). Both were refused ("floating-point value reinterpreted as bits; its derivative would be lost"), though no value is computed from the bits. Against central differences on both sides of each branch, reverse and forward mode, -O0 to -O2 and checkpointed.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O0 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

/* A reflection chosen by the sign of each coordinate. */
static double reflected(double *x) {
  double s = 0;
  for (int i = 0; i < 3; i++) {
    double v = x[i] * x[3];
    s += signbit(v) ? -v * v : v * sin(v);
    if (isinf(s) || isnan(s) || !isfinite(v))
      return 0;
  }
  return s + (signbit(x[3]) ? x[3] : 2 * x[3]);
}
CHECK_FD_OF(reflected)

int main(void) {
  double a[4] = {0.7, -0.3, 1.2, 0.5}, b[4] = {-0.4, 0.9, -1.1, -0.8};
  CHECK_GRADIENT_AND_TANGENTS(reflected, a, 4);
  CHECK_GRADIENT_AND_TANGENTS(reflected, b, 4);
  return check_report();
}
