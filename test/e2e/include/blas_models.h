/* Functions that call every BLAS routine Capsule has rules for, through
 * CBLAS and the Fortran interface, for the tests of derivatives through
 * BLAS: each overwrites what it hands the routines (so the rules' copies
 * matter), uses both orders, strides other than 1 and active scalars, and
 * adds to its NY outputs y a different smooth function of every result
 * (so that bilinear routines have second derivatives too). NX inputs x.
 * Include after cblas.h, math.h and fortran_blas.h. */
#ifndef BLAS_MODELS_H
#define BLAS_MODELS_H

#define NX 18 /* inputs */
#define NY 5  /* outputs */

/* Adds to every output a different smooth function of the values \p v. */
static void spread(double *y, const double *v, int n) {
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < n; ++i)
      y[j] += sin(0.3 * (j + 1) * v[i]) * (i + 1) / n;
}

static void blas_level1(const double *x, double *y) {
  double a[6], b[6], c[3];
  for (int i = 0; i < 6; ++i) {
    a[i] = x[i];
    b[i] = x[6 + i];
  }
  cblas_daxpy(6, x[12], a, 1, b, 1);
  cblas_dscal(3, x[13], b, 2);
  cblas_drot(3, a, 2, b + 1, -1, cos(x[14]), sin(x[14]));
  cblas_dswap(3, a, 1, b + 3, 1);
  cblas_dcopy(3, b, 2, c, 1);
  double r = cblas_ddot(6, a, 1, b, 1) +
             cblas_dnrm2(6, b, 1) * cblas_dasum(3, c, 1) +
             a[cblas_idamax(6, a, 1)] * x[15];
  spread(y, a, 6);
  spread(y, b, 6);
  y[0] += sin(r);
}

static void blas_level2(const double *x, double *y) {
  double A[12], u[4], r[3], T[9], P[6], s[3];
  for (int i = 0; i < 12; ++i)
    A[i] = x[i];
  for (int i = 0; i < 4; ++i)
    u[i] = x[12 + i];
  for (int i = 0; i < 3; ++i)
    r[i] = 0.3 * i - x[16] * x[i];
  // y = x0 A u + 0.5 y (A 3x4 by rows), then A (3x4 by columns) += 0.7 y u'
  // (u backwards), u = A'y + x1 u.
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 3, 4, x[0], A, 4, u, 1, 0.5, r, 1);
  cblas_dger(CblasColMajor, 3, 4, 0.7, r, 1, u, -1, A, 3);
  cblas_dgemv(CblasColMajor, CblasTrans, 3, 4, 1.0, A, 3, r, 1, x[1], u, 1);
  for (int i = 0; i < 9; ++i)
    T[i] = 0.2 * A[i];
  for (int i = 0; i < 3; ++i)
    T[4 * i] += 3;
  cblas_dtrmv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, 3, T, 3,
              r, 1);
  cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, 3, T, 3, y,
              1);
  cblas_dsymv(CblasRowMajor, CblasLower, 3, 0.4, T, 3, u, 1, 0.9, r, 1);
  cblas_dsyr(CblasColMajor, CblasUpper, 3, 0.1, r, 1, T, 3);
  // The upper triangle of T by rows, packed.
  for (int i = 0, k = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j)
      P[k++] = T[3 * i + j];
  for (int i = 0; i < 3; ++i)
    s[i] = u[i] * x[17];
  cblas_dspmv(CblasRowMajor, CblasUpper, 3, 0.5, P, r, 1, 0.2, s, 1);
  cblas_dspr(CblasColMajor, CblasLower, 3, 0.05, s, 1, P);
  cblas_dtpsv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, 3, P, s,
              1);
  cblas_dtpmv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, 3, P, r, 1);
  spread(y, r, 3);
  spread(y, u, 4);
  spread(y, s, 3);
  spread(y, T, 9);
  spread(y, P, 6);
}

static void blas_level3(const double *x, double *y) {
  double A[9], B[9], C[9], D[9], T[9];
  for (int i = 0; i < 9; ++i) {
    A[i] = x[i];
    B[i] = x[9 + i];
    C[i] = 0.1 * i - 0.2;
  }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 3, 3, 3, x[0], A, 3, B,
              3, 0.5, C, 3);
  for (int i = 0; i < 9; ++i)
    D[i] = B[i];
  cblas_dsymm(CblasColMajor, CblasLeft, CblasUpper, 3, 3, 0.7, A, 3, C, 3,
              x[1], B, 3);
  cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, 3, 3, 0.3, B, 3, 0.2, A,
              3);
  cblas_dsyr2k(CblasColMajor, CblasUpper, CblasTrans, 3, 3, 0.1, A, 3, C, 3,
               0.6, D, 3);
  for (int i = 0; i < 9; ++i)
    T[i] = 0.2 * C[i];
  for (int i = 0; i < 3; ++i)
    T[4 * i] += 3;
  cblas_dtrmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans,
              CblasNonUnit, 3, 3, 0.8, T, 3, B, 3);
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasUnit, 3,
              3, x[2], T, 3, C, 3);
  spread(y, A, 9);
  spread(y, B, 9);
  spread(y, C, 9);
  spread(y, D, 9);
}

static void blas_fortran(const double *x, double *y) {
  double A[9], B[9], C[9], u[3];
  int n = 3, one = 1;
  double alpha = x[17], beta = 0.5, unit = 1;
  for (int i = 0; i < 9; ++i) {
    A[i] = x[i];
    B[i] = x[9 + i];
    C[i] = 0.05 * i;
  }
  for (int i = 0; i < 3; ++i)
    u[i] = x[3 * i] - x[16];
  dgemm_("T", "N", &n, &n, &n, &alpha, A, &n, B, &n, &beta, C, &n LENGTHS(2));
  dgemv_("N", &n, &n, &unit, C, &n, B, &one, &alpha, u, &one LENGTHS(1));
  for (int i = 0; i < 3; ++i)
    C[4 * i] += 4;
  dtrsv_("U", "T", "N", &n, C, &n, u, &one LENGTHS(3));
  spread(y, u, 3);
  spread(y, C, 9);
  y[1] += sin(ddot_(&n, u, &one, B, &one));
}

#endif
