// fp->int->fp casts (fptosi/fptoui/sitofp/uitofp) carry no derivative: (double)(int)x * x has derivative (int)x.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static const double table[4] = {0.5, -1.5, 2.5, 3.25};

double f(const double *x, int n) {
  double a = (double)(int)x[0] * x[0];
  double b = (double)(long long)(3.0 * x[1]) * x[1] * x[1];
  double c = (double)(unsigned)x[2] * sin(x[2]);
  double d = x[3] * x[3] * (double)((int)(x[3] * 10.0)) * 0.1;
  int k = (int)x[0] + (int)(x[1] * 3.0);   /* int-only computation */
  double t = (double)(k * k);              /* constant wrt x */
  double u = table[(int)x[0]] * x[2];      /* data-dependent index */
  return a + b + c + d + t + (double)n * x[3] + u;
}

static int N_ARG = 3;
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, N_ARG);
}

int main(void) {
  /* Every cast argument is well away from an integer: FD does not cross a
   * jump. (int)x0 = 2, (long long)(3 x1) = 4, (unsigned)x2 = 3,
   * (int)(10 x3) = 7. */
  double x[4] = {2.6, 1.4, 3.3, 0.77};
  double dx[4] = {0, 0, 0, 0};
  double cf[4] = {
      2.0,
      2.0 * 4.0 * x[1],
      3.0 * cos(x[2]) + table[2],
      2.0 * x[3] * 7.0 * 0.1 + (double)N_ARG,
  };
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, N_ARG);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, 4);
  return check_report();
}
