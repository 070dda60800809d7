// Mutual recursion (even/odd style) on doubles (out scalar) and over an array index (dup array).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double ev(double x, int n);
double od(double x, int n) {
  if (n == 0)
    return x;
  return sin(ev(0.9 * x, n - 1)) + x;
}
double ev(double x, int n) {
  if (n == 0)
    return x * x;
  return od(x + 0.1, n - 1) * x;
}

static double walk_b(const double *v, int i);
static double walk_a(const double *v, int i) {
  if (i < 0)
    return 0.0;
  return v[i] * v[i] + walk_b(v, i - 1);
}
static double walk_b(const double *v, int i) {
  if (i < 0)
    return 1.0;
  return cos(v[i]) * (1.0 + walk_a(v, i - 1));
}
double walk(const double *v, int n) { return walk_a(v, n - 1); }

static double ev6(double x) { return ev(x, 6); }
static double walk_fd(double *v, void *ctx) { return walk(v, *(int *)ctx); }

int main(void) {
  double x = 0.75;
  check_close("ev(x,6) (fd)",
              __capsule_autodiff((void *)ev, capsule_out, x, capsule_const, 6),
              check_fd1(ev6, x), CHECK_FD_RTOL, CHECK_FD_ATOL);
  int n = 6;
  double v[6] = {0.3, -0.7, 1.2, 0.5, -0.2, 0.9};
  double dv[6] = {0};
  __capsule_autodiff_v((void *)walk, capsule_dup, v, dv, capsule_const, n);
  check_grad_fd("walk dv", dv, walk_fd, &n, v, 6);
  return check_report();
}
