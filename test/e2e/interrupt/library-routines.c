// Interruptible execution over library routines that write memory: the C
// library's qsort and BLAS (CBLAS and the Fortran interface) in place on
// global arrays, between the program's own stores. None of them is
// instrumented; the pass calls the runtime's step function for each just
// before it, which journals what the call writes and charges its work
// (runtime/blas/Steps.c, runtime/libc/Sort.c), so resuming a capsule
// twice, from any step, gives the uninterrupted run's memory and result
// (interrupt_check.h lists the checks). No side-effect warning.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: env CAPSULE_ATOMIC_LOOPS=0 %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas
// RUN: env OPENBLAS_NUM_THREADS=1 %t0
// RUN: env OPENBLAS_NUM_THREADS=1 %t2
// QUIET-NOT: warning
#include "interrupt_check.h"
#include <cblas.h>

void dgemv_(const char *trans, const int *m, const int *n, const double *alpha,
            const double *a, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy);

#define N 6
#define ROUNDS 9

static double keys[N * 3];
static double a[N * N], x[N], y[N];

static int ascending(const void *p, const void *q) {
  double u = *(const double *)p, v = *(const double *)q;
  return (u > v) - (u < v);
}

double mix(int rounds) {
  const int n = N, one = 1;
  const double alpha = 0.3, beta = 0.5;
  double total = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < N * 3; ++i)
      keys[i] = keys[i] * 0.5 + x[i % N] - 0.1 * r;
    qsort(keys, N * 3, sizeof *keys, ascending);
    cblas_dgemv(CblasRowMajor, CblasNoTrans, N, N, 0.2, a, N, keys, 3, 0.7, y,
                1);
    dgemv_("T", &n, &n, &alpha, a, &n, y, &one, &beta, x, &one);
    cblas_dger(CblasColMajor, N, N, -0.01, x, 1, y, 1, a, N);
    cblas_dscal(N, 0.9, x, 1);
    total += cblas_ddot(N, x, 1, y, 1) + keys[N];
  }
  return total;
}

static void reset(void) {
  for (int i = 0; i < N * 3; ++i)
    keys[i] = ((i * 7) % 11) * 0.25;
  for (int i = 0; i < N * N; ++i)
    a[i] = ((i * 5) % 9) * 0.1 - 0.3;
  for (int i = 0; i < N; ++i)
    x[i] = y[i] = 0.2 * i - 0.5;
}
DEFINE_RUNNERS(double, mix, ROUNDS)
static const struct region regions[] = {
    {keys, sizeof keys}, {a, sizeof a}, {x, sizeof x}, {y, sizeof y}};

int main(void) {
  struct program p = {"library-routines", sizeof(double), reset, plain_run,
                      primops_run,        interrupt_run,  regions, 4,
                      4096 + 2048};
  return check_interruptible(&p) != 0;
}
