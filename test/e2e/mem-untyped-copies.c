// Copies whose type the IR does not spell out: an int array copied element
// by element at -O0 (no TBAA there), and struct assignment `*d = *s` in a
// helper that is not inlined (an untyped memcpy whose type is at the call
// sites, or in !tbaa.struct when optimizing).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include "include/check.h"

typedef struct {
  double a, b;
} V;

__attribute__((noinline)) static void copyv(V *d, const V *s) { *d = *s; }

double f(double *x, int n) {
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    a[i] = n - 1 - i;
  for (int i = 0; i < n; i++)
    b[i] = a[i]; /* a plain int copy */
  V v = {sin(x[0]), x[1] * x[2]}, w;
  copyv(&w, &v);
  double s = w.a * w.b;
  for (int i = 0; i < n; i++)
    s += x[b[i]] * x[i];
  free(a);
  free(b);
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

void __capsule_autodiff_v(void *, ...);
int main(void) {
  int n = 3;
  double x[3] = {0.7, -1.2, 2.1}, dx[3] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 3);
  return check_report();
}
