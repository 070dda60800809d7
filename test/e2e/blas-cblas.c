// CBLAS routines (OpenBLAS): ddot, daxpy, dscal, dnrm2, dcopy, dswap,
// dasum, drot, dgemv and dgemm differentiated by Capsule's built-in rules, which
// call BLAS for the adjoints (runtime/blas), and idamax, whose index has no
// derivative, picking an element. Strides of 1, 2 and -1 (and dscal's,
// dnrm2's and dasum's strides of 0 and -1, with which BLAS does nothing), row- and
// column-major matrices with padded leading dimensions, every transpose,
// active scalars alpha and beta, beta = 0 (y and C not read), and inputs
// overwritten after the call (the rules keep copies). Gradient and tangents
// against central differences at -O0 and -O2; a program's own rule for a
// routine takes precedence over the built-in one (a deliberately wrong rule
// whose effect must show).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas && %t2
#include <capsule/capsule.h>
#include <cblas.h>
#include <math.h>
#include "check.h"

#define NP 24

/* Level 1 on strided views of p. */
static double level1(double *p) {
  double v[6], w[3];
  for (int i = 0; i < 6; ++i)
    v[i] = p[i] * p[i + 6];
  cblas_dcopy(3, v, 2, w, 1);            /* w = v[0], v[2], v[4] */
  cblas_dscal(3, p[12], w, 1);           /* w *= s */
  cblas_daxpy(3, p[13], v + 1, 2, w, -1); /* w (backwards) += a v[1,3,5] */
  double d = cblas_ddot(3, w, 1, p + 14, 2);
  v[0] = 99; /* overwritten after the calls: the rules kept copies */
  return d + cblas_dnrm2(3, w, 1) * cblas_dnrm2(2, p + 20, 3);
}

/* dswap and drot (active c and s) on strided views (forward and
 * backward), dasum of entries of both signs, and the entry of largest
 * magnitude idamax finds. */
static double swap_asum_amax(double *p) {
  double v[6], w[3];
  for (int i = 0; i < 6; ++i)
    v[i] = p[i] * p[i + 6] - 0.3;
  for (int i = 0; i < 3; ++i)
    w[i] = p[12 + i] * (i - 1);
  cblas_dswap(3, v, 2, w, -1); /* v[0,2,4] <-> w backwards */
  cblas_drot(3, v + 1, 2, w, -1, p[17], p[18]); /* active c and s */
  double s = cblas_dasum(6, v, 1) * p[15] + cblas_dasum(2, w, 2);
  size_t k = cblas_idamax(6, v, 1);
  v[0] = 99; /* overwritten after the calls: the rules kept copies */
  return s + w[0] * w[1] + 3 * w[2] + p[k] * p[16];
}

/* dscal and dnrm2 do nothing with a stride that is not positive (BLAS
 * returns at once): x stays as it is and the norm is 0, so the derivatives
 * are those of the plain sum below. */
static double nonpositive_strides(double *p) {
  double v[4] = {p[0] * p[1], p[2], p[3] * p[3], p[4]};
  cblas_dscal(4, p[5], v, -1);
  cblas_dscal(2, p[6], v + 2, 0);
  return v[0] + 2 * v[1] + 3 * v[2] + v[3] * v[0] +
         cblas_dnrm2(4, v, -1) * p[7] + cblas_dnrm2(4, v, 0) +
         cblas_dasum(4, v, -1) + cblas_dasum(4, v, 0);
}

static int gemv_case;

/* y = alpha op(A) x + beta y, A 3x2 in a padded array (lda 4 or 3). */
static double level2(double *p) {
  int order = gemv_case & 1 ? CblasColMajor : CblasRowMajor;
  int trans = gemv_case & 2 ? CblasTrans : CblasNoTrans;
  double beta = gemv_case & 4 ? 0.0 : p[19];
  int m = 3, n = 2, lda = order == CblasRowMajor ? 4 : 5;
  double a[20];
  for (int i = 0; i < 20; ++i)
    a[i] = p[i % 12] + 0.1 * i;
  double y[6] = {p[20], p[21], p[22], p[23], p[20] * p[21], 0.5};
  int leny = trans == CblasNoTrans ? m : n;
  cblas_dgemv(order, trans, m, n, p[18], a, lda, p + 12, 2, beta, y, 2);
  a[0] = -5; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < leny; ++i)
    s += y[2 * i] * y[2 * i] * (i + 1);
  return s;
}

static int gemm_case;

/* C = alpha op(A) op(B) + beta C: C 2x3, inner dimension 2. */
static double level3(double *p) {
  int order = gemm_case & 1 ? CblasColMajor : CblasRowMajor;
  int ta = gemm_case & 2 ? CblasTrans : CblasNoTrans;
  int tb = gemm_case & 4 ? CblasTrans : CblasNoTrans;
  double beta = gemm_case & 8 ? 0.0 : p[23];
  int m = 2, n = 3, k = 2, ld = 5;
  double a[15], b[15], c[15];
  for (int i = 0; i < 15; ++i) {
    a[i] = p[i % 10] * (1 + 0.05 * i);
    b[i] = p[(i + 10) % 20] - 0.03 * i;
    c[i] = p[(i + 3) % 24] + 0.2;
  }
  cblas_dgemm(order, ta, tb, m, n, k, p[22], a, ld, b, ld, beta, c, ld);
  b[1] = 7; /* overwritten after the call */
  double s = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double cij = order == CblasRowMajor ? c[i * ld + j] : c[i + j * ld];
      s += cij * cij * (1 + i + 2 * j);
    }
  return s;
}


static double level1_fd(double *x, void *ctx) { return level1(x); }
static double swap_asum_amax_fd(double *x, void *ctx) {
  return swap_asum_amax(x);
}
static double nonpositive_strides_fd(double *x, void *ctx) {
  return nonpositive_strides(x);
}
static double level2_fd(double *x, void *ctx) { return level2(x); }
static double level3_fd(double *x, void *ctx) { return level3(x); }

int main(void) {
  double p[NP];
  for (int i = 0; i < NP; ++i)
    p[i] = 0.3 + 0.37 * sin(1.7 * i);
  CHECK_GRADIENT_AND_DIRECTION("level 1", level1, p, NP);
  CHECK_GRADIENT_AND_DIRECTION("dswap, drot, dasum, idamax", swap_asum_amax, p,
                               NP);
  CHECK_GRADIENT_AND_DIRECTION("strides <= 0", nonpositive_strides, p, 8);
  for (gemv_case = 0; gemv_case < 8; ++gemv_case)
    CHECK_GRADIENT_AND_DIRECTION("dgemv", level2, p, NP);
  for (gemm_case = 0; gemm_case < 16; ++gemm_case)
    CHECK_GRADIENT_AND_DIRECTION("dgemm", level3, p, NP);
  return check_report();
}
