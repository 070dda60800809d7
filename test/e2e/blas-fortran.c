// The Fortran interface of BLAS (ddot_, daxpy_, dscal_, dnrm2_, dcopy_,
// dswap_, dasum_, idamax_, drot_, dgemv_, dger_, dgemm_, dtrsv_, dtrsm_, dtrmv_,
// dtrmm_), called from C as
// programs do: every argument by address, column-major matrices, options as
// characters in either case, prototypes the program declares itself
// (include/fortran_blas.h, not OpenBLAS's f77blas.h). Active alpha and beta
// passed by address, a constant one in a global, and the scalars changed
// after the call (the rules keep the values the call saw). Gradient and
// tangents against central differences at -O0 and -O2.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas && %t2
// With gfortran's hidden lengths of the character arguments declared and
// passed, as size_t and as f2c's int:
// RUN: %clang -O1 -g -DSTRLEN=size_t %capsule_cflags %s -o %t1 %capsule_ldflags -lopenblas && %t1
// RUN: %clang -O2 -g -DSTRLEN=int %capsule_cflags %s -o %t3 %capsule_ldflags -lopenblas && %t3
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"
#include "fortran_blas.h"

#define NP 24

static const double one = 1.0;
static const int ione = 1;

static double level1(double *p) {
  double v[6], w[3];
  int n = 3, two = 2, minus = -1;
  for (int i = 0; i < 6; ++i)
    v[i] = p[i] * p[i + 6];
  dcopy_(&n, v, &two, w, &ione);
  double s = p[12];
  dscal_(&n, &s, w, &ione);
  daxpy_(&n, &p[13], v + 1, &two, w, &minus);
  daxpy_(&n, &one, v, &ione, w, &ione);
  double d = ddot_(&n, w, &ione, p + 14, &two);
  dswap_(&n, v, &two, w, &minus); /* v[0,2,4] <-> w backwards */
  double c = p[18], s2 = p[19];
  drot_(&n, w, &ione, v + 1, &two, &c, &s2);
  c = s2 = 0; /* changed after the call */
  int six = 6, k = idamax_(&six, v, &ione) - 1; /* 1-based */
  double r = d + dnrm2_(&n, w, &ione) * p[20] + dasum_(&six, v, &ione) * p[21] +
             p[k] * p[22];
  n = 0, s = 7, two = 5; /* changed after the calls */
  return r;
}

static int case_;
static const char *const trans_letters[] = {"N", "T", "n", "C"};

/* y = alpha op(A) x + beta y, A 3x2 column-major in lda 5. */
static double gemv(double *p) {
  const char *trans = trans_letters[case_ & 3];
  double alpha = p[18], beta = case_ & 4 ? 0.0 : p[19];
  int m = 3, n = 2, lda = 5, incx = 2, incy = -1;
  double a[10], y[3] = {p[20], p[21], p[22] * p[20]};
  for (int i = 0; i < 10; ++i)
    a[i] = p[i] + 0.1 * i;
  dgemv_(trans, &m, &n, &alpha, a, &lda, p + 12, &incx, &beta, y,
         &incy LENGTHS(1));
  alpha = 0, m = 0, lda = 1; /* changed after the call */
  return y[0] * y[0] + 2 * y[1] * y[1] + 3 * y[2] * y[2];
}

static double ger(double *p) {
  int m = 3, n = 2, lda = 4, incy = case_ & 1 ? -2 : 1;
  double a[8], alpha = p[20];
  for (int i = 0; i < 8; ++i)
    a[i] = p[i] * (1 + 0.1 * i);
  dger_(&m, &n, &alpha, p + 8, &ione, p + 12, &incy, a, &lda);
  alpha = 3, n = 0;
  double s = 0;
  for (int i = 0; i < 8; ++i)
    s += a[i] * a[i] * (1 + i % 3);
  return s;
}

/* C = alpha op(A) op(B) + beta C: C 2x3, inner dimension 2, ld 4. */
static double gemm(double *p) {
  const char *ta = trans_letters[case_ & 3], *tb = case_ & 4 ? "t" : "N";
  double beta = case_ & 8 ? 0.0 : p[23];
  int m = 2, n = 3, k = 2, ld = 4;
  double a[12], b[12], c[12];
  for (int i = 0; i < 12; ++i) {
    a[i] = p[i % 10] * (1 + 0.05 * i);
    b[i] = p[(i + 10) % 20] - 0.03 * i;
    c[i] = p[(i + 3) % 24] + 0.2;
  }
  dgemm_(ta, tb, &m, &n, &k, &p[22], a, &ld, b, &ld, &beta, c, &ld LENGTHS(2));
  beta = 2, k = 0;
  double s = 0;
  for (int i = 0; i < 12; ++i)
    s += c[i] * c[i] * (1 + i % 4);
  return s;
}

/* dtrmv_ and dtrmm_ in place of dtrsv_ and dtrsm_. */
static int multiply;

static double trsv(double *p) {
  const char *uplo = case_ & 1 ? "L" : "u", *trans = case_ & 2 ? "t" : "N";
  const char *diag = case_ & 4 ? "U" : "n";
  int n = 3, lda = 4, inc = case_ & 8 ? -2 : 1;
  double a[12], x[6];
  for (int i = 0; i < 12; ++i)
    a[i] = p[i] * 0.5 + 0.05 * i;
  for (int i = 0; i < 3; ++i)
    a[i * lda + i] += 2 + p[i];
  for (int i = 0; i < 6; ++i)
    x[i] = p[12 + i] + 0.1 * i;
  if (multiply)
    dtrmv_(uplo, trans, diag, &n, a, &lda, x, &inc LENGTHS(3));
  else
    dtrsv_(uplo, trans, diag, &n, a, &lda, x, &inc LENGTHS(3));
  n = 1, inc = 3;
  double s = 0;
  for (int i = 0; i < 6; ++i)
    s += x[i] * x[i] * (i + 1) + x[i] * p[18 + i % 3];
  return s;
}

static double trsm(double *p) {
  const char *side = case_ & 1 ? "R" : "l", *uplo = case_ & 2 ? "L" : "U";
  const char *trans = case_ & 4 ? "T" : "N", *diag = case_ & 8 ? "u" : "N";
  int m = 2, n = 3, lda = 4, ldb = 3, k = *side == 'l' ? m : n;
  double a[16], b[9], alpha = p[23];
  for (int i = 0; i < 16; ++i)
    a[i] = p[i % 12] * 0.4 - 0.03 * i;
  for (int i = 0; i < 9; ++i)
    b[i] = p[(i + 12) % 24] + 0.1 * i;
  for (int i = 0; i < k; ++i)
    a[i * lda + i] += 2 + p[20 + i];
  if (multiply)
    dtrmm_(side, uplo, trans, diag, &m, &n, &alpha, a, &lda, b,
           &ldb LENGTHS(4));
  else
    dtrsm_(side, uplo, trans, diag, &m, &n, &alpha, a, &lda, b,
           &ldb LENGTHS(4));
  alpha = -1, m = 1;
  double s = 0;
  for (int i = 0; i < 9; ++i)
    s += b[i] * b[i] * (1 + i % 3);
  return s;
}

#define WRAP(F)                                                                \
  static double F##_fd(double *x, void *ctx) { return F(x); }
WRAP(level1)
WRAP(gemv)
WRAP(ger)
WRAP(gemm)
WRAP(trsv)
WRAP(trsm)

int main(void) {
  double p[NP];
  for (int i = 0; i < NP; ++i)
    p[i] = 0.3 + 0.37 * sin(1.7 * i);
  CHECK_GRADIENT_AND_DIRECTION("level 1", level1, p, NP);
  for (case_ = 0; case_ < 8; ++case_)
    CHECK_GRADIENT_AND_DIRECTION("dgemv_", gemv, p, NP);
  for (case_ = 0; case_ < 2; ++case_)
    CHECK_GRADIENT_AND_DIRECTION("dger_", ger, p, NP);
  for (case_ = 0; case_ < 16; ++case_)
    CHECK_GRADIENT_AND_DIRECTION("dgemm_", gemm, p, NP);
  for (case_ = 0; case_ < 16; ++case_)
    CHECK_GRADIENT_AND_DIRECTION("dtrsv_", trsv, p, NP);
  for (case_ = 0; case_ < 16; ++case_)
    CHECK_GRADIENT_AND_DIRECTION("dtrsm_", trsm, p, NP);
  multiply = 1;
  for (case_ = 0; case_ < 16; ++case_)
    CHECK_GRADIENT_AND_DIRECTION("dtrmv_", trsv, p, NP);
  for (case_ = 0; case_ < 16; ++case_)
    CHECK_GRADIENT_AND_DIRECTION("dtrmm_", trsm, p, NP);
  return check_report();
}
