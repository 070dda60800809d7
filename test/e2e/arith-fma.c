// fma() and contracted a*b+c patterns (llvm.fma / llvm.fmuladd) with fp-contract on and fast.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O2 -ffp-contract=fast -g %capsule_cflags %s -o %t2f %capsule_ldflags -lm && %t2f
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x) {
  double p = fma(x[0], x[1], x[2]);          /* llvm.fma */
  double q = __builtin_fma(x[2], x[2], -x[0]); /* llvm.fma */
  double r = x[0] * x[1] + x[2];             /* llvm.fmuladd when contracted */
  double s = p * q + r * x[1];               /* nested contraction */
  return s - x[2] * r;
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  double x[3] = {0.9, -1.4, 0.6};
  double dx[3] = {0, 0, 0};
  double p = x[0] * x[1] + x[2], q = x[2] * x[2] - x[0];
  double r = p; /* same value as p */
  /* f = p q + r x1 - x2 r, with p = r = x0 x1 + x2, q = x2^2 - x0 */
  double cf[3] = {
      x[1] * q - p + x[1] * x[1] - x[2] * x[1],
      x[0] * q + x[0] * x[1] + r - x[2] * x[0],
      q + p * 2.0 * x[2] + x[1] - r - x[2],
  };
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, 3);
  return check_report();
}
