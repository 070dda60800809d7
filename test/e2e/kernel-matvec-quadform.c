// Kernel: dense matrix-vector product and quadratic form 0.5 x^T A x + b^T A x (A and x dup, b const); closed-form gradients.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static void matvec(const double *A, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    y[i] = 0.0;
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j] * x[j];
  }
}

double quad(const double *A, const double *x, const double *b, int n) {
  double y[8];
  matvec(A, x, y, n);
  double q = 0.0;
  for (int i = 0; i < n; i++)
    q += 0.5 * x[i] * y[i] + b[i] * y[i];
  return q;
}

enum { N = 5 };
static const double B[N] = {0.3, -0.7, 1.1, 0.4, -0.2};
/* w = [A row-major, x] */
static double w_fd(double *w, void *ctx) {
  (void)ctx;
  return quad(w, w + N * N, B, N);
}

int main(void) {
  double A[N * N], dA[N * N] = {0}, x[N] = {0.6, -1.2, 0.8, 0.25, -0.5}, dx[N] = {0};
  double w[N * N + N], got[N * N + N], cf[N * N + N];
  for (int i = 0; i < N * N; i++)
    A[i] = cos(0.7 * i + 0.3) + (i % (N + 1) == 0 ? 2.0 : 0.0);
  /* dA_ij = (0.5 x_i + b_i) x_j ; dx = 0.5 (A + A^T) x + A^T b */
  for (int i = 0; i < N; i++) {
    double s = 0.0;
    for (int j = 0; j < N; j++) {
      cf[i * N + j] = (0.5 * x[i] + B[i]) * x[j];
      s += 0.5 * (A[i * N + j] + A[j * N + i]) * x[j] + A[j * N + i] * B[j];
    }
    cf[N * N + i] = s;
  }
  __capsule_autodiff_v((void *)quad, capsule_dup, A, dA, capsule_dup, x, dx,
                       capsule_const, B, capsule_const, N);
  memcpy(w, A, sizeof A);
  memcpy(w + N * N, x, sizeof x);
  memcpy(got, dA, sizeof dA);
  memcpy(got + N * N, dx, sizeof dx);
  check_grad_cf_fd("d[A, x]", got, cf, w_fd, 0, w, N * N + N);
  return check_report();
}
