// Interruptible execution: an array of pointers to rows (a stack array of
// row pointers into a caller matrix, swapped for partial pivoting and passed
// as double ** to a callee) solving a linear system by Gaussian elimination;
// the eliminated matrix, the solution and the returned pivot count must be
// identical after an interruption at any step (interrupt_check.h lists the
// checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <math.h>

#define N 6

__attribute__((noinline)) static void eliminate(double **rows, int n, int col) {
  for (int r = col + 1; r < n; ++r) {
    double f = rows[r][col] / rows[col][col];
    for (int c = col; c <= n; ++c)
      rows[r][c] -= f * rows[col][c];
  }
}

int solve(double *m, double *x) {
  double *rows[N];
  int swaps = 0;
  for (int i = 0; i < N; ++i)
    rows[i] = m + i * (N + 1);
  for (int col = 0; col < N; ++col) {
    int best = col;
    for (int r = col + 1; r < N; ++r)
      if (fabs(rows[r][col]) > fabs(rows[best][col]))
        best = r;
    if (best != col) {
      double *t = rows[best];
      rows[best] = rows[col];
      rows[col] = t;
      ++swaps;
    }
    eliminate(rows, N, col);
  }
  for (int i = N - 1; i >= 0; --i) {
    double s = rows[i][N];
    for (int j = i + 1; j < N; ++j)
      s -= rows[i][j] * x[j];
    x[i] = s / rows[i][i];
  }
  return swaps;
}

static double m[N * (N + 1)], x[N];
static void reset(void) {
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j)
      m[i * (N + 1) + j] = ((i * 5 + j * 3) % 7) - 3 + (i == j ? 0.5 : 0);
    m[i * (N + 1) + N] = i + 1;
    x[i] = 0;
  }
}
DEFINE_RUNNERS(int, solve, m, x)
static const struct region regions[] = {{m, sizeof m}, {x, sizeof x}};

int main(void) {
  struct program p = {
      "data-row-pointers", sizeof(int), reset, plain_run, primops_run,
      interrupt_run,       regions,     2,     4096};
  return check_interruptible(&p) != 0;
}
