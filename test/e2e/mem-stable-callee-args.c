// A helper called in a loop with a matrix nothing writes (restrict says
// the other pointers cannot reach it): the helper's reverse sweep loads the
// matrix again instead of taping it on every call, so the tape stays far
// smaller than one copy of the matrix per call. When the caller rewrites
// the matrix between calls it must be taped. Both gradients are checked
// against finite differences.
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include "include/check.h"

#define N 16
#define STEPS 50

void __capsule_autodiff_v(void *, ...);

__attribute__((noinline)) static void matvec(const double *restrict A,
                                             const double *restrict x,
                                             double *restrict y) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < N; j++)
      s += A[i * N + j] * x[j];
    y[i] = tanh(s);
  }
}

/* A is only read: stable in matvec. */
double iterate(const double *restrict A, double *restrict x) {
  double y[N];
  for (int t = 0; t < STEPS; t++) {
    matvec(A, x, y);
    for (int i = 0; i < N; i++)
      x[i] = y[i];
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += (1 + 0.1 * i) * x[i];
  return s;
}

/* The caller changes A after each call: not stable. */
double iterate_mutating(double *A, double *x) {
  double y[N];
  for (int t = 0; t < 3; t++) {
    matvec(A, x, y);
    for (int i = 0; i < N; i++) {
      x[i] = y[i];
      A[i * N + i] *= 0.5;
    }
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += (1 + 0.1 * i) * x[i];
  return s;
}

static double A0[N * N];
static void init(double *A) {
  for (int i = 0; i < N * N; i++)
    A[i] = 0.3 * sin(1.0 + i) / sqrt(N);
}
static double iterate_fd(double *x, void *ctx) {
  double c[N];
  for (int i = 0; i < N; i++)
    c[i] = x[i];
  return iterate((const double *)ctx, c);
}
static double mutating_fd(double *x, void *ctx) {
  (void)ctx;
  double A[N * N], c[N];
  init(A);
  for (int i = 0; i < N; i++)
    c[i] = x[i];
  return iterate_mutating(A, c);
}

int main(void) {
  init(A0);
  double x0[N], x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x0[i] = x[i] = cos(0.5 * i);
  __capsule_autodiff_v((void *)iterate, capsule_const, A0, capsule_dup, x, dx);
  check_grad_fd("stable matrix", dx, iterate_fd, A0, x0, N);
  capsule_stats_t st;
  capsule_get_stats(&st);
  /* Taping the matrix on every call would need STEPS * N * N doubles. */
  check_close("tape well below a matrix per call",
              st.last_tape_bytes < STEPS * N * N * sizeof(double) / 4, 1, 0,
              0);

  double A[N * N], dA[N * N] = {0}, y[N], dy[N] = {0};
  init(A);
  for (int i = 0; i < N; i++)
    y[i] = x0[i];
  __capsule_autodiff_v((void *)iterate_mutating, capsule_dup, A, dA,
                       capsule_dup, y, dy);
  check_grad_fd("rewritten matrix", dy, mutating_fd, 0, x0, N);
  return check_report();
}
