// Arrays of pointers to rows (double **A): the shadow is a table of shadow row pointers.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(double **A, const double *v, int n, int m) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double r = 0.0;
    for (int j = 0; j < m; j++)
      r += A[i][j] * v[j];
    s += r * r + sin(A[i][i]);
  }
  return s + A[0][1] * A[n - 1][m - 1];
}

enum { N = 3, M = 4 };
/* w = [A row-major, v] */
static double eval(double *w, void *ctx) {
  (void)ctx;
  double *rows[N];
  for (int i = 0; i < N; i++)
    rows[i] = w + i * M;
  return f(rows, w + N * M, N, M);
}

int main(void) {
  double r0[M] = {0.5, -1.0, 0.25, 0.8}, r1[M] = {1.2, 0.3, -0.7, 0.1},
         r2[M] = {-0.4, 0.9, 0.6, -1.3};
  double d0[M] = {0}, d1[M] = {0}, d2[M] = {0};
  double *A[N] = {r0, r1, r2}, *dA[N] = {d0, d1, d2};
  double v[M] = {0.7, -0.2, 1.1, 0.4}, dv[M] = {0};
  double w[N * M + M], got[N * M + M];
  for (int j = 0; j < M; j++) {
    w[j] = r0[j];
    w[M + j] = r1[j];
    w[2 * M + j] = r2[j];
    w[N * M + j] = v[j];
  }
  __capsule_autodiff_v((void *)f, capsule_dup, A, dA, capsule_dup, v, dv,
                       capsule_const, N, capsule_const, M);
  for (int j = 0; j < M; j++) {
    got[j] = d0[j];
    got[M + j] = d1[j];
    got[2 * M + j] = d2[j];
    got[N * M + j] = dv[j];
  }
  check_grad_fd("d[A, v]", got, eval, 0, w, N * M + M);
  /* the shadow row table itself is not changed */
  check_close("dA[1] kept", dA[1] == d1, 1, 0, 0);
  return check_report();
}
