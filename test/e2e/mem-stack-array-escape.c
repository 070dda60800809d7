// Stack arrays and a stack scalar whose addresses escape into helpers that write and read them; a stack slot overwritten after use.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

__attribute__((noinline)) static void fill(double *buf, const double *x, int n) {
  for (int i = 0; i < n; i++)
    buf[i] = x[i] * x[(i + 1) % n];
}

__attribute__((noinline)) static double consume(const double *buf, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += buf[i] * (i + 1) + cos(buf[i]);
  return s;
}

__attribute__((noinline)) static void accumulate(double *acc, double v) {
  *acc += v * v;
}

double f(const double *x, int n) {
  double tmp[8];
  double acc = 0.0;
  fill(tmp, x, n);
  double r = consume(tmp, n);
  tmp[0] = r * 0.1; /* overwritten after it was read */
  for (int i = 0; i < n; i++)
    accumulate(&acc, tmp[i]);
  return r + acc;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 6;
  double x[6] = {0.5, -0.8, 1.2, 0.3, -0.6, 0.9};
  double dx[6] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 6);
  return check_report();
}
