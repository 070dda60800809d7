// Float arithmetic (+ - * / fneg, float return seeded with 1) on dup float arrays; float tolerance.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

float f(const float *x, int n) {
  float acc = 0.0f;
  for (int i = 0; i + 1 < n; i++) {
    float a = x[i], b = x[i + 1];
    acc += a * b - b / (1.0f + a * a) + -(a - 0.5f * b) * a;
  }
  return acc;
}

/* The same formula in double: the reference. */
static double f_double(double *x, void *ctx) {
  int n = *(int *)ctx;
  double acc = 0.0;
  for (int i = 0; i + 1 < n; i++) {
    double a = x[i], b = x[i + 1];
    acc += a * b - b / (1.0 + a * a) + -(a - 0.5 * b) * a;
  }
  return acc;
}

int main(void) {
  enum { N = 5 };
  int n = N;
  float x[N] = {0.8f, -1.25f, 1.5f, 0.375f, -0.625f};
  float dx[N] = {0};
  double xd[N], dxd[N];
  for (int i = 0; i < N; i++)
    xd[i] = x[i];

  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  for (int i = 0; i < N; i++)
    dxd[i] = dx[i];
  /* float: rounding of ~1e-7 per operation, reference in double. */
  check_grad_fd_tol("dx", dxd, f_double, &n, xd, N, CHECK_FLOAT_RTOL,
                    CHECK_FLOAT_ATOL);
  return check_report();
}
