// Error: BLAS calls Capsule's built-in rules do not cover, each with active
// data: a routine without a rule (drotm), and a Fortran routine declared
// with fewer hidden string lengths than it has character arguments (so not
// the routine the rules know; blas-fortran.c has the right ones). Second
// derivatives through the routines that have rules work
// (nesting/blas-second-derivatives.c).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <cblas.h>
#include <stddef.h>

static double rot(double *a) {
  double y[2] = {1, 2};
  const double param[5] = {-1, 0.6, -0.8, 0.8, 0.6};
  // CHECK-DAG: blas-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'rot': call to a function without a body and without a known derivative ('cblas_drotm'); define it in this translation unit, register a derivative rule for it
  cblas_drotm(2, a, 1, y, 1, param);
  return a[0] * y[1];
}

void dtrsv_(const char *uplo, const char *trans, const char *diag, const int *n,
            const double *a, const int *lda, double *x, const int *incx,
            size_t uplo_length, size_t trans_length);

static double trsv(double *x) {
  int n = 1, inc = 1;
  // CHECK-DAG: blas-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'trsv': call to a function without a body and without a known derivative ('dtrsv_')
  dtrsv_("U", "N", "N", &n, x, &n, x + 1, &inc, 1, 1);
  return x[1];
}

void run(double *x) {
  double g[4];
  __capsule_autodiff((void *)rot, x, g);
  __capsule_autodiff((void *)trsv, x, g);
}
