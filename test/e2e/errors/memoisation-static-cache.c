// Error: a function that memoises its result in static storage across calls
// (issue 15, item 5). A gradient is the derivative of what one call
// computes, with memory that held values before the call constant; on a
// cache hit the result comes from an earlier call and its derivative would
// be lost: before this check, a gradient taken after a primal call that
// filled the cache was silently about half the true one. The cache's key (an
// equality comparison of a differentiated value with static storage the
// same code stores such values to) is refused, naming the storage, at -O0
// and -O2, plain and checkpointed.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// The cache used in a loop: optimized code keeps the key in a register from
// one iteration to the next (a phi of the global's value and the last key
// stored), and was silently accepted at -O2 (a gradient of 0 on a hit).
// RUN: not %clang -O2 -g -DIN_LOOP %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clang -O3 -g -DIN_LOOP %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// Forward mode loses the tangent the same way (was never refused).
// RUN: not %clang -O0 -g -DFORWARD %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -DFORWARD -DIN_LOOP %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
//
// Not refused: an equality test against static storage the code only reads
// (a parameter the caller sets), and a cache keyed on an integer argument
// that is not differentiated. Both run and are checked against finite
// differences.
// RUN: %clang -O0 -g -DSTATIC_PARAMETERS %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g -DSTATIC_PARAMETERS %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
#include <capsule/capsule.h>
#include <math.h>
#include "../include/check.h"

static double heavy(double x) { return sin(x) * exp(0.5 * x); }

#ifndef STATIC_PARAMETERS
double cached(double x) {
  static double last_x = NAN, last_y;
  // CHECK: memoisation-static-cache.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function '{{cached|f}}': memoisation in static storage: a differentiated value is compared for equality with 'cached.last_x'
  if (x == last_x)
    return last_y;
  last_x = x;
  last_y = heavy(x);
  return last_y;
}

#ifdef IN_LOOP
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += cached(x[i]);
  return s;
}
#ifdef FORWARD
double tangent(const double *x, const double *dx, int n) {
  return __capsule_fwddiff((void *)f, x, dx, n);
}
#else
void grad(const double *x, double *dx, int n) {
  __capsule_autodiff((void *)f, x, dx, n);
}
#endif
#else
double f(double x) { return cached(x) * cached(x) + cached(2.0 * x); }

#ifdef FORWARD
double tangent(double x) { return __capsule_fwddiff((void *)f, x, 1.0); }
#else
double grad(double x) { return __capsule_autodiff((void *)f, x); }
#endif
#endif
#else
double special_point = 0.25; /* set by the caller, read by f */
static int table_n = -1;
static double table[8];

static double f(double x, int n) {
  // an integer-keyed table of constants: filled from n alone
  if (n != table_n) {
    for (int k = 0; k < 8; k++)
      table[k] = 1.0 / (k + n + 1.0);
    table_n = n;
  }
  double r = heavy(x) * table[n % 8];
  if (x == special_point)
    r += 1.0; /* a point of the caller's choosing: never hit below */
  return r;
}

static double f_fd(double *x, void *ctx) { return f(x[0], *(int *)ctx); }

int main(void) {
  int n = 3;
  double x[1] = {0.7};
  f(x[0], n);
  double dx[1] = {__capsule_autodiff((void *)f, x[0], capsule_const, n)};
  check_grad_fd("dx", dx, f_fd, &n, x, 1);
  return check_report();
}
#endif
