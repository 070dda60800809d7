// switch on an int computed from the data, with fallthrough and default; every case taken.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x, int n) {
  double r = 1.0;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    int k = (int)floor(v * 2.0) & 3;
    switch (k) {
    case 0:
      r += v * v;
      break;
    case 1:
      r += sin(v);
      /* fallthrough */
    case 2:
      r *= 1.0 + 0.1 * v;
      break;
    default:
      r = r - v * v * v;
      break;
    }
  }
  return r;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 6;
  /* 2x = 0.6, 1.6, 2.4, 3.4, -0.6, 4.4: cases 0, 1, 2, 3, 3, 0; each at
   * least 0.4 from an integer. */
  double x[6] = {0.3, 0.8, 1.2, 1.7, -0.3, 2.2};
  double dx[6] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 6);
  return check_report();
}
