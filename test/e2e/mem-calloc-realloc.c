// calloc'ed accumulator and a realloc'ed growing array (realloc(NULL), then doubling: the data moves) inside f.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <stdlib.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

typedef struct {
  double *v;
  int len, cap;
} Vec;

static void push(Vec *a, double x) {
  if (a->len == a->cap) {
    a->cap = a->cap ? 2 * a->cap : 1;
    a->v = (double *)realloc(a->v, a->cap * sizeof(double));
  }
  a->v[a->len++] = x;
}

double f(const double *x, int n) {
  Vec a = {NULL, 0, 0};
  for (int i = 0; i < n; i++)
    push(&a, x[i] * x[i]);
  for (int i = 0; i < n; i++)
    push(&a, sin(x[i]) * a.v[i]);
  double *h = (double *)calloc(n, sizeof(double));
  for (int k = 0; k < a.len; k++)
    h[k % n] += a.v[k] * 0.5 + (k % n == 0 ? x[1] : 0.0);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += h[i] * h[i];
  free(h);
  free(a.v);
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 7; /* 14 pushes: capacities 1, 2, 4, 8, 16 */
  double x[7] = {0.4, -0.9, 1.1, 0.25, -0.6, 0.8, 1.3};
  double dx[7] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 7);
  return check_report();
}
