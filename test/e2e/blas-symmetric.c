// BLAS's symmetric routines, through CBLAS and the Fortran interface:
// dsymv and dsymm (A symmetric, one triangle stored), dspmv (one triangle
// packed) and dsyr, dspr (packed), dsyrk and dsyr2k (one triangle
// written), differentiated by Capsule's built-in rules
// (runtime/blas). Every order, side, triangle and transpose, beta active or
// 0, padded leading
// dimensions, strides 1 and -2, inputs overwritten after the call; the
// entries the routines neither read nor write depend on the inputs too
// (the other triangle of A: derivative 0; of C: its adjoint passes
// through). Gradient and a tangent against central differences at -O0 and
// -O2.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas && %t2
// With gfortran's hidden lengths of the character arguments (as size_t):
// RUN: %clang -O1 -g -DSTRLEN=size_t %capsule_cflags %s -o %t1 %capsule_ldflags -lopenblas && %t1
#include <capsule/capsule.h>
#include <cblas.h>
#include <math.h>
#include "check.h"
#include "fortran_lengths.h"

void dsymv_(const char *uplo, const int *n, const double *alpha,
            const double *a, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy STRLENS(1));
void dspmv_(const char *uplo, const int *n, const double *alpha,
            const double *ap, const double *x, const int *incx,
            const double *beta, double *y, const int *incy STRLENS(1));
void dspr_(const char *uplo, const int *n, const double *alpha,
           const double *x, const int *incx, double *ap STRLENS(1));
void dsyr_(const char *uplo, const int *n, const double *alpha,
           const double *x, const int *incx, double *a,
           const int *lda STRLENS(1));
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda,
            const double *beta, double *c, const int *ldc STRLENS(2));
void dsymm_(const char *side, const char *uplo, const int *m, const int *n,
            const double *alpha, const double *a, const int *lda,
            const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc STRLENS(2));
void dsyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
             const double *alpha, const double *a, const int *lda,
             const double *b, const int *ldb, const double *beta, double *c,
             const int *ldc STRLENS(2));

#define NP 24

static int case_;

/* y = alpha A x + beta y, A 3x3 symmetric in a padded array. */
static double symv(double *p) {
  int order = case_ & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = case_ & 2 ? CblasLower : CblasUpper;
  double beta = case_ & 4 ? 0.0 : p[22];
  int inc = case_ & 8 ? -2 : 1;
  double a[12], y[6];
  for (int i = 0; i < 12; ++i)
    a[i] = p[i] * (1 + 0.1 * i);
  for (int i = 0; i < 6; ++i)
    y[i] = p[(i + 16) % NP] - 0.2 * i;
  if (case_ & 16) {
    int n = 3, lda = 4, one = 1;
    double alpha = p[21];
    dsymv_(uplo == CblasUpper ? "U" : "l", &n, &alpha, a, &lda, p + 12, &one,
           &beta, y, &inc LENGTHS(1));
    alpha = 0, n = 1;
  } else {
    cblas_dsymv(order, uplo, 3, p[21], a, 4, p + 12, 1, beta, y, inc);
  }
  a[0] = 5; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 6; ++i)
    s += y[i] * y[i] * (1 + i % 4);
  return s;
}

/* y = alpha A x + beta y, A 4x4 symmetric with one triangle packed (10
 * entries), x with stride 1 or -2. */
static double spmv(double *p) {
  int order = case_ & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = case_ & 2 ? CblasLower : CblasUpper;
  int inc = case_ & 4 ? -2 : 1;
  double beta = case_ & 8 ? 0.0 : p[23];
  double ap[10], x[8], y[4];
  for (int i = 0; i < 10; ++i)
    ap[i] = p[i] * 0.6 + 0.03 * i;
  for (int i = 0; i < 8; ++i)
    x[i] = p[(i + 10) % NP] - 0.1 * i;
  for (int i = 0; i < 4; ++i)
    y[i] = p[18 + i] * p[i];
  if (case_ & 16) {
    int n = 4;
    double alpha = p[22];
    dspmv_(uplo == CblasUpper ? "u" : "L", &n, &alpha, ap, x, &inc, &beta, y,
           &(const int){1} LENGTHS(1));
    alpha = 0, n = 2; /* changed after the call */
  } else {
    cblas_dspmv(order, uplo, 4, p[22], ap, x, inc, beta, y, 1);
  }
  ap[3] = -1; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += y[i] * y[i] * (1 + i);
  return s;
}

/* A = alpha x x^T + A on one triangle, A 3x3 in a padded array, x with
 * stride 1 or -2. */
static double syr(double *p) {
  int order = case_ & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = case_ & 2 ? CblasLower : CblasUpper;
  int inc = case_ & 4 ? -2 : 1;
  double x[6], a[12];
  for (int i = 0; i < 6; ++i)
    x[i] = p[i] * 0.8 - 0.1 * i;
  for (int i = 0; i < 12; ++i)
    a[i] = p[(i + 6) % NP] + 0.05 * i;
  if (case_ & 16) {
    int n = 3, lda = 4;
    double alpha = p[22];
    dsyr_(uplo == CblasUpper ? "U" : "l", &n, &alpha, x, &inc, a,
          &lda LENGTHS(1));
    alpha = 0, n = 1; /* changed after the call */
  } else {
    cblas_dsyr(order, uplo, 3, p[22], x, inc, a, 4);
  }
  x[0] = 7; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 12; ++i)
    s += a[i] * a[i] * (1 + i % 3);
  return s;
}

/* A = alpha x x^T + A on one triangle of a 4x4 A packed (10 entries),
 * x with stride 1 or -2. */
static double spr(double *p) {
  int order = case_ & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = case_ & 2 ? CblasLower : CblasUpper;
  int inc = case_ & 4 ? -2 : 1;
  double x[8], ap[10];
  for (int i = 0; i < 8; ++i)
    x[i] = p[i] * 0.8 - 0.1 * i;
  for (int i = 0; i < 10; ++i)
    ap[i] = p[(i + 8) % NP] + 0.05 * i;
  if (case_ & 16) {
    int n = 4;
    double alpha = p[22];
    dspr_(uplo == CblasUpper ? "u" : "L", &n, &alpha, x, &inc,
          ap LENGTHS(1));
    alpha = 0, n = 1; /* changed after the call */
  } else {
    cblas_dspr(order, uplo, 4, p[22], x, inc, ap);
  }
  x[0] = 7; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 10; ++i)
    s += ap[i] * ap[i] * (1 + i % 3);
  return s;
}

/* C = alpha op(A) op(A)^T + beta C, C 3x3, inner dimension 2. */
static double syrk(double *p) {
  int order = case_ & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = case_ & 2 ? CblasLower : CblasUpper;
  int trans = case_ & 4 ? CblasTrans : CblasNoTrans;
  double beta = case_ & 8 ? 0.0 : p[23];
  double a[12], c[12];
  for (int i = 0; i < 12; ++i) {
    a[i] = p[i] * 0.7 - 0.05 * i;
    c[i] = p[(i + 12) % NP] + 0.1 * i;
  }
  if (case_ & 16) {
    int n = 3, k = 2, lda = 4, ldc = 4;
    double alpha = p[22];
    dsyrk_(uplo == CblasUpper ? "u" : "L", trans == CblasTrans ? "T" : "n", &n,
           &k, &alpha, a, &lda, &beta, c, &ldc LENGTHS(2));
    alpha = -1, k = 0;
  } else {
    cblas_dsyrk(order, uplo, trans, 3, 2, p[22], a, 4, beta, c, 4);
  }
  a[1] = -2; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 12; ++i)
    s += c[i] * c[i] * (1 + i % 5);
  return s;
}

/* C = alpha A B + beta C or alpha B A + beta C, C and B 2x3, A 2x2 or 3x3
 * symmetric in padded arrays. */
static double symm(double *p) {
  int order = case_ & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = case_ & 2 ? CblasLower : CblasUpper;
  int side = case_ & 4 ? CblasRight : CblasLeft;
  double beta = case_ & 8 ? 0.0 : p[23];
  double a[12], b[12], c[12];
  for (int i = 0; i < 12; ++i) {
    a[i] = p[i] * 0.6 + 0.02 * i;
    b[i] = p[(i + 7) % NP] - 0.1 * i;
    c[i] = p[(i + 12) % NP] + 0.1 * i;
  }
  if (case_ & 16) {
    int m = 2, n = 3, ld = 4;
    double alpha = p[22];
    dsymm_(side == CblasLeft ? "l" : "R", uplo == CblasUpper ? "U" : "l", &m,
           &n, &alpha, a, &ld, b, &ld, &beta, c, &ld LENGTHS(2));
    alpha = 3, m = 0;
  } else {
    cblas_dsymm(order, side, uplo, 2, 3, p[22], a, 4, b, 4, beta, c, 4);
  }
  a[2] = -1, b[0] = 4; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 12; ++i)
    s += c[i] * c[i] * (1 + i % 3);
  return s;
}

/* C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C, C 3x3, inner
 * dimension 2. */
static double syr2k(double *p) {
  int order = case_ & 1 ? CblasColMajor : CblasRowMajor;
  int uplo = case_ & 2 ? CblasLower : CblasUpper;
  int trans = case_ & 4 ? CblasTrans : CblasNoTrans;
  double beta = case_ & 8 ? 0.0 : p[23];
  double a[12], b[12], c[12];
  for (int i = 0; i < 12; ++i) {
    a[i] = p[i] * 0.7 - 0.05 * i;
    b[i] = p[(i + 5) % NP] * 0.5 + 0.03 * i;
    c[i] = p[(i + 12) % NP] + 0.1 * i;
  }
  if (case_ & 16) {
    int n = 3, k = 2, ld = 4;
    double alpha = p[22];
    dsyr2k_(uplo == CblasUpper ? "u" : "L", trans == CblasTrans ? "T" : "n",
            &n, &k, &alpha, a, &ld, b, &ld, &beta, c, &ld LENGTHS(2));
    alpha = -1, k = 0;
  } else {
    cblas_dsyr2k(order, uplo, trans, 3, 2, p[22], a, 4, b, 4, beta, c, 4);
  }
  b[1] = -2; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < 12; ++i)
    s += c[i] * c[i] * (1 + i % 5);
  return s;
}

#define WRAP(F)                                                                \
  static double F##_fd(double *x, void *ctx) { return F(x); }
WRAP(symv)
WRAP(spmv)
WRAP(syr)
WRAP(spr)
WRAP(syrk)
WRAP(symm)
WRAP(syr2k)

int main(void) {
  double p[NP];
  for (int i = 0; i < NP; ++i)
    p[i] = 0.3 + 0.37 * sin(1.7 * i);
  for (case_ = 0; case_ < 32; ++case_) {
    if ((case_ & 16) && (case_ & 1))
      continue; /* the Fortran interface is column-major only */
    CHECK_GRADIENT_AND_DIRECTION("dsymv", symv, p, NP);
    CHECK_GRADIENT_AND_DIRECTION("dspmv", spmv, p, NP);
    CHECK_GRADIENT_AND_DIRECTION("dsyr", syr, p, NP);
    CHECK_GRADIENT_AND_DIRECTION("dspr", spr, p, NP);
    CHECK_GRADIENT_AND_DIRECTION("dsyrk", syrk, p, NP);
    CHECK_GRADIENT_AND_DIRECTION("dsymm", symm, p, NP);
    CHECK_GRADIENT_AND_DIRECTION("dsyr2k", syr2k, p, NP);
  }
  return check_report();
}
