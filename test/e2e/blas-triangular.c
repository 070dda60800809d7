// CBLAS's dger, dtrsv, dtrmv, dtrsm and dtrmm, and the packed dtpsv and
// dtpmv through CBLAS and the Fortran interface (OpenBLAS), differentiated
// by Capsule's built-in rules (runtime/blas): every order, side, triangle,
// transpose and diagonal kind, padded leading dimensions, strides of 1, -1
// and 2, active alpha, and inputs overwritten after the call. The entries of a triangular
// matrix the routine does not read (the other triangle, and the diagonal of
// a unit one) depend on the inputs too: their derivatives must be 0.
// Gradient and tangents against central differences at -O0 and -O2.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas && %t2
#include <capsule/capsule.h>
#include <cblas.h>
#include <math.h>
#include "check.h"

void dtpsv_(const char *uplo, const char *trans, const char *diag, const int *n,
            const double *ap, double *x, const int *incx);
void dtpmv_(const char *uplo, const char *trans, const char *diag, const int *n,
            const double *ap, double *x, const int *incx);

#define NP 24

static int ger_case;

/* A += alpha x y^T, A 3x2 in a padded array. */
static double ger(double *p) {
  int order = ger_case & 1 ? CblasColMajor : CblasRowMajor;
  int incx = ger_case & 2 ? -1 : 1;
  int lda = order == CblasRowMajor ? 3 : 4;
  double a[12], x[3], y[4];
  for (int i = 0; i < 12; ++i)
    a[i] = p[i] * (1 + 0.1 * i);
  for (int i = 0; i < 3; ++i)
    x[i] = p[12 + i] - 0.2 * i;
  for (int i = 0; i < 4; ++i)
    y[i] = p[15 + i] * p[15 + i];
  cblas_dger(order, 3, 2, p[19], x, incx, y, 2, a, lda);
  x[1] = 8; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 12; ++i)
    s += a[i] * a[i] * (1 + i % 5);
  return s;
}

static int trsv_case;
/* dtrmv and dtrmm in place of dtrsv and dtrsm. */
static int multiply;

/* x = op(A)^-1 b (or op(A) b), A 3x3 triangular in a padded array, x with
 * stride. */
static double trsv(double *p) {
  int order = trsv_case & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = trsv_case & 2 ? CblasLower : CblasUpper;
  int trans = trsv_case & 4 ? CblasTrans : CblasNoTrans;
  int diag = trsv_case & 8 ? CblasUnit : CblasNonUnit;
  int inc = trsv_case & 16 ? -2 : 1;
  int lda = 4;
  double a[12], x[6];
  for (int i = 0; i < 12; ++i)
    a[i] = p[i] * 0.5 + 0.05 * i;
  for (int i = 0; i < 3; ++i)
    a[i * lda + i] += 2 + p[i]; /* well conditioned */
  for (int i = 0; i < 6; ++i)
    x[i] = p[12 + i] + 0.1 * i;
  if (multiply)
    cblas_dtrmv(order, uplo, trans, diag, 3, a, lda, x, inc);
  else
    cblas_dtrsv(order, uplo, trans, diag, 3, a, lda, x, inc);
  a[1] = -3; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 6; ++i)
    s += x[i] * x[i] * (i + 1) + x[i] * p[18 + i % 3];
  return s;
}

/* Where diagonal entry i of a packed n x n triangle lies. */
static int packed_diagonal(int order, int uplo, int n, int i) {
  int column_upper = (order == CblasColMajor) == (uplo == CblasUpper);
  return column_upper ? i + i * (i + 1) / 2 : i + i * (2 * n - i - 1) / 2;
}

/* x = op(A)^-1 b (or op(A) b), A 3x3 triangular packed (6 entries),
 * through CBLAS or (case 32, column-major only) the Fortran interface. */
static double tpsv(double *p) {
  int order = trsv_case & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = trsv_case & 2 ? CblasLower : CblasUpper;
  int trans = trsv_case & 4 ? CblasTrans : CblasNoTrans;
  int diag = trsv_case & 8 ? CblasUnit : CblasNonUnit;
  int inc = trsv_case & 16 ? -2 : 1;
  double ap[6], x[6];
  for (int i = 0; i < 6; ++i)
    ap[i] = p[i] * 0.5 + 0.05 * i;
  for (int i = 0; i < 3; ++i)
    ap[packed_diagonal(order, uplo, 3, i)] += 2 + p[i]; /* well conditioned */
  for (int i = 0; i < 6; ++i)
    x[i] = p[12 + i] + 0.1 * i;
  if (trsv_case & 32) {
    const char *u = uplo == CblasUpper ? "U" : "l";
    const char *t = trans == CblasTrans ? "t" : "N";
    const char *d = diag == CblasUnit ? "u" : "N";
    int n = 3;
    if (multiply)
      dtpmv_(u, t, d, &n, ap, x, &inc);
    else
      dtpsv_(u, t, d, &n, ap, x, &inc);
    n = 0, inc = 9; /* changed after the call */
  } else if (multiply) {
    cblas_dtpmv(order, uplo, trans, diag, 3, ap, x, inc);
  } else {
    cblas_dtpsv(order, uplo, trans, diag, 3, ap, x, inc);
  }
  ap[1] = -3; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 6; ++i)
    s += x[i] * x[i] * (i + 1) + x[i] * p[18 + i % 3];
  return s;
}

static int trsm_case;

/* B = alpha op(A)^-1 B or alpha B op(A)^-1 (or the products), B 2x3, A 2x2
 * or 3x3. */
static double trsm(double *p) {
  int order = trsm_case & 1 ? CblasColMajor : CblasRowMajor;
  int side = trsm_case & 2 ? CblasRight : CblasLeft;
  int uplo = trsm_case & 4 ? CblasLower : CblasUpper;
  int trans = trsm_case & 8 ? CblasTrans : CblasNoTrans;
  int diag = trsm_case & 16 ? CblasUnit : CblasNonUnit;
  int m = 2, n = 3, k = side == CblasLeft ? m : n, lda = 4, ldb = 4;
  double a[16], b[16];
  for (int i = 0; i < 16; ++i) {
    a[i] = p[i % 12] * 0.4 - 0.03 * i;
    b[i] = p[(i + 12) % 24] + 0.1 * i;
  }
  for (int i = 0; i < k; ++i)
    a[i * lda + i] += 2 + p[20 + i];
  if (multiply)
    cblas_dtrmm(order, side, uplo, trans, diag, m, n, p[23], a, lda, b, ldb);
  else
    cblas_dtrsm(order, side, uplo, trans, diag, m, n, p[23], a, lda, b, ldb);
  a[0] = 9; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 16; ++i)
    s += b[i] * b[i] * (1 + i % 3);
  return s;
}

static double ger_fd(double *x, void *ctx) { return ger(x); }
static double trsv_fd(double *x, void *ctx) { return trsv(x); }
static double tpsv_fd(double *x, void *ctx) { return tpsv(x); }
static double trsm_fd(double *x, void *ctx) { return trsm(x); }

int main(void) {
  double p[NP];
  for (int i = 0; i < NP; ++i)
    p[i] = 0.3 + 0.37 * sin(1.7 * i);
  for (ger_case = 0; ger_case < 4; ++ger_case)
    CHECK_GRADIENT_AND_DIRECTION("dger", ger, p, NP);
  for (trsv_case = 0; trsv_case < 32; ++trsv_case)
    CHECK_GRADIENT_AND_DIRECTION("dtrsv", trsv, p, NP);
  for (trsv_case = 0; trsv_case < 64; ++trsv_case)
    if (!(trsv_case & 32) || trsv_case & 1)
      CHECK_GRADIENT_AND_DIRECTION("dtpsv", tpsv, p, NP);
  for (trsm_case = 0; trsm_case < 32; ++trsm_case)
    CHECK_GRADIENT_AND_DIRECTION("dtrsm", trsm, p, NP);
  multiply = 1;
  for (trsv_case = 0; trsv_case < 32; ++trsv_case)
    CHECK_GRADIENT_AND_DIRECTION("dtrmv", trsv, p, NP);
  for (trsv_case = 0; trsv_case < 64; ++trsv_case)
    if (!(trsv_case & 32) || trsv_case & 1)
      CHECK_GRADIENT_AND_DIRECTION("dtpmv", tpsv, p, NP);
  for (trsm_case = 0; trsm_case < 32; ++trsm_case)
    CHECK_GRADIENT_AND_DIRECTION("dtrmm", trsm, p, NP);
  return check_report();
}
