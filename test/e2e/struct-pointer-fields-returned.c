// Pointers that travel inside aggregates: a struct of a pointer and a
// length, and a struct of two pointers, returned in registers by helpers
// ({ptr, i64} and {ptr, ptr}); the memory they point to keeps its adjoints.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include "include/check.h"

typedef struct {
  double *p;
  long n;
} View;
typedef struct {
  const double *l, *r;
} Pair;

__attribute__((noinline)) static View view(double *x, long n) {
  View v = {x, n};
  return v;
}
__attribute__((noinline)) static Pair pair(const double *l, const double *r) {
  Pair p = {l, r};
  return p;
}

double f(double *x, long n) {
  View v = view(x, n);
  double a[2] = {sin(x[0]), x[1] * x[2]};
  Pair e = pair(a, x);
  double s = e.l[0] * e.r[1] + e.l[1];
  for (long i = 0; i < v.n; i++)
    s += v.p[i] * v.p[i] * (1 + 0.5 * i);
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(long *)ctx); }

void __capsule_autodiff_v(void *, ...);
int main(void) {
  long n = 4;
  double x[4] = {0.4, -1.1, 0.7, 1.3}, dx[4] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 4);
  return check_report();
}
