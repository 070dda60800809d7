// Interruptible execution: a chain of helpers four calls deep with int,
// double and pointer arguments, some kept out of line (noinline) so the
// calls survive -O2; the array the innermost helper writes and the returned
// value must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

__attribute__((noinline)) static double leaf(double *slot, double x, int k) {
  double p = 1;
  for (int i = 0; i < k; ++i)
    p *= x;
  *slot += p;
  return p - *slot * 0.5;
}

static double mid2(double *row, double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += leaf(&row[i], x + i * 0.1, i % 4);
  return s;
}

__attribute__((noinline)) static double mid1(double *m, int rows, int cols,
                                             double x) {
  double s = 0;
  for (int r = 0; r < rows; ++r)
    s += mid2(m + r * cols, x * (r + 1), cols) * (r & 1 ? -1 : 1);
  return s;
}

static long top(double *m, int rows, int cols) {
  double a = mid1(m, rows, cols, 0.5);
  double b = mid1(m, rows, cols, -0.25);
  return (long)(a * 1000) ^ (long)(b * 1000);
}

double chain(double *m, int rows, int cols) {
  long t = top(m, rows, cols);
  return (double)t + mid1(m, rows, cols, 1.0 / 3);
}

static double m[5 * 6];
static void reset(void) {
  for (int i = 0; i < 30; ++i)
    m[i] = (i % 4) * 0.25;
}
DEFINE_RUNNERS(double, chain, m, 5, 6)
static const struct region regions[] = {{m, sizeof m}};

int main(void) {
  struct program p = {
      "call-helpers-chain", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,        regions,        1,     4096};
  return check_interruptible(&p) != 0;
}
