// Interruptible execution: ternaries that become selects (clamp, abs, sign,
// min/max of doubles and ints, a conditional pointer choice); the clamped
// array, the chosen-side counts and the returned sum must be identical after
// an interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

static double clamp(double x, double lo, double hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

double selects(double *x, int *counts, int n) {
  double s = 0, mx = -1e300, mn = 1e300;
  int imax = 0;
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    double a = v < 0 ? -v : v;
    int sign = v > 0 ? 1 : v < 0 ? -1 : 0;
    mx = v > mx ? v : mx;
    mn = v < mn ? v : mn;
    imax = (int)a > imax ? (int)a : imax;
    int *slot = sign > 0 ? &counts[0] : sign < 0 ? &counts[1] : &counts[2];
    *slot += 1;
    x[i] = clamp(v, -2.5, 2.5);
    s += sign * a + (i & 1 ? x[i] : -x[i]);
  }
  return s + mx * 100 + mn * 10000 + imax;
}

static double x[20];
static int counts[3];
static void reset(void) {
  for (int i = 0; i < 20; ++i)
    x[i] = (i % 3 == 0) ? 0 : (i * 1.7 - 15) * ((i & 2) ? 1 : -0.5);
  counts[0] = counts[1] = counts[2] = 0;
}
DEFINE_RUNNERS(double, selects, x, counts, 20)
static const struct region regions[] = {{x, sizeof x}, {counts, sizeof counts}};

int main(void) {
  struct program p = {"cf-select", sizeof(double), reset,   plain_run,
                      primops_run, interrupt_run,  regions, 2,
                      4096};
  return check_interruptible(&p) != 0;
}
