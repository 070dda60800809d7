// Interruptible execution: while loops whose trip counts depend on the data
// through a convergence test (Newton's square root per element, then the
// fixed point of cos left by a break); the roots, the per-element iteration
// counts and the returned total must be identical after an interruption at
// any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <math.h>

int converge(const double *in, double *out, int *iters, int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) {
    double x = in[i] > 1 ? in[i] : 1, prev = 0;
    int it = 0;
    while (fabs(x - prev) > 1e-12 * x) {
      prev = x;
      x = 0.5 * (x + in[i] / x);
      ++it;
    }
    out[i] = x;
    iters[i] = it;
    total += it;
  }
  double y = 1;
  int k = 0;
  while (1) {
    double z = cos(y);
    if (fabs(z - y) < 1e-10)
      break;
    y = z;
    ++k;
  }
  out[n] = y;
  return total + k;
}

static double in[6], out[7];
static int iters[6];
static void reset(void) {
  static const double v[6] = {2, 0.5, 1e6, 17, 3.75, 1e-3};
  for (int i = 0; i < 6; ++i) {
    in[i] = v[i];
    out[i] = -1;
    iters[i] = -1;
  }
  out[6] = -1;
}
DEFINE_RUNNERS(int, converge, in, out, iters, 6)
static const struct region regions[] = {
    {in, sizeof in}, {out, sizeof out}, {iters, sizeof iters}};

int main(void) {
  struct program p = {
      "loop-while-converge", sizeof(int), reset, plain_run, primops_run,
      interrupt_run,         regions,     3,     4096};
  return check_interruptible(&p) != 0;
}
