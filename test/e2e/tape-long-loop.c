// A long recurrence (100000 iterations) whose reverse pass needs a large tape spanning many chunks.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *a, int steps) {
  double y = 0.1, s = 0.0;
  for (int k = 0; k < steps; k++) {
    y = 0.6 * sin(y) + a[k & 3] * cos(0.001 * k); /* y must be taped */
    s += y * y;
  }
  return s / steps + y;
}

enum { STEPS = 100000 };
static double f_fd(double *a, void *ctx) {
  (void)ctx;
  return f(a, STEPS);
}

int main(void) {
  double a[4] = {0.3, -0.5, 0.8, 0.2}, da[4] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, a, da, capsule_const, STEPS);
  check_grad_fd("da", da, f_fd, 0, a, 4);
  return check_report();
}
