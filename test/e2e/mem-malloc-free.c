// malloc'ed temporary buffers inside f (freed inside f), including one allocated and freed in every loop iteration.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <stdlib.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x, int n) {
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(2 * n * sizeof *b);
  for (int i = 0; i < n; i++)
    a[i] = x[i] * x[i] - 0.5;
  for (int i = 0; i < n; i++) {
    b[2 * i] = a[i] * x[(i + 1) % n];
    b[2 * i + 1] = exp(0.3 * a[i]);
  }
  double s = 0.0;
  for (int k = 0; k < 2 * n; k++)
    s += b[k] * (k % 3 + 1);
  free(a);
  for (int r = 0; r < 3; r++) {
    double *t = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
      t[i] = b[i] * r + x[i];
    s += t[n - 1] * t[0];
    free(t);
  }
  free(b);
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 5;
  double x[5] = {0.6, -1.2, 0.35, 0.9, -0.45};
  double dx[5] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 5);
  return check_report();
}
