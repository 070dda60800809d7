// File-scope double arrays and a global scalar used as scratch inside f (written, then read): the gradient must flow through them.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double scratch[16];
double gbuf[8];
static double gsum;
static const double coef[8] = {0.5, 1.5, -0.25, 2.0, 0.75, -1.0, 1.25, 0.3};

static void stage1(const double *x, int n) {
  for (int i = 0; i < n; i++) {
    scratch[i] = x[i] * coef[i];
    scratch[n + i] = sin(x[i]);
  }
}

static void stage2(int n) {
  gsum = 0.0;
  for (int i = 0; i < n; i++) {
    gsum += scratch[i] * scratch[n + i];
    gbuf[i] = gsum;
  }
}

double f(const double *x, int n) {
  stage1(x, n);
  stage2(n);
  double r = 0.0;
  for (int i = 0; i < n; i++)
    r += gbuf[i] * gbuf[i] * 0.1;
  return r + gsum * x[0];
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 6;
  double x[6] = {0.9, -0.4, 1.3, 0.2, -1.1, 0.6};
  double dx[6] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 6);
  return check_report();
}
