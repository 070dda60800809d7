// A stack array that holds only constants until an active value is stored
// through a pointer that may point to it (a select of two arrays) is active:
// its loads carry derivatives. Checkpointed, both arrays live in the step
// function's record and the loop header is a yield point
// (CAPSULE_ATOMIC_LOOPS=0), so the rule is the record slots' as well as the
// stack slots'.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags -lm
// RUN: %check_checkpointed %clang %s %t.ck2 -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <math.h>
#include "include/check.h"

double f(const double *x, int n) {
  double a[2], b[2];
  for (int k = 0; k < 2; k++) {
    a[k] = 1.0 + k;
    b[k] = 3.0 + k;
  }
  double *p = n > 3 ? a : b;
  p[1] = x[0] * x[1];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i % 2] * sin(x[i % 2]) + b[(i + 1) % 2];
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

void __capsule_autodiff_v(void *, ...);
int main(void) {
  for (int n = 2; n <= 5; n += 3) {
    double x[2] = {0.3, -0.7}, dx[2] = {0};
    __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
    check_grad_fd("dx", dx, f_fd, &n, x, 2);
  }
  return check_report();
}
