/*===- Steps.c - What a BLAS call writes and costs, for the journal ------===*
 *
 * Interruptible and checkpointed code re-executes from capsules, which
 * restore the memory the code wrote, and counts steps, which decide where
 * runs stop and so how much a stage of a checkpointed gradient holds.
 * Instrumented code journals its own stores and charges its own
 * instructions; a BLAS routine is not instrumented, so the pass calls the
 * routine's step function here, with the routine's own arguments, just
 * before the routine (lib/Interrupt/StepInstrumentation.cpp). It saves the
 * span of memory the routine may write (the output vector from its first
 * to its last element, or the output matrix from its first to its last
 * column, row in row-major order, with the gaps the leading dimension
 * leaves) and returns the steps the call costs: its multiply-adds, as if
 * the routine's loops had been instrumented. Saving bytes the routine does
 * not write is harmless: restoring gives them back the values they had
 * anyway. ddot, dnrm2 and dasum write nothing; they cost steps all the
 * same.
 *===----------------------------------------------------------------------===*/
#include "Blas.h"

#include "../abi.h"

static void journal_elements(double *first, long count) {
  if (count > 0)
    __capsule_journal_write(first, (uint64_t)count * sizeof(double));
}

/* The n elements of a vector with stride inc (either sign). */
static void journal_vector(int n, double *x, int inc) {
  long stride = inc < 0 ? -(long)inc : inc;
  if (n > 0)
    journal_elements(x, (long)(n - 1) * (stride ? stride : 1) + 1);
}

/* A rows x cols matrix stored in order with leading dimension ld. */
static void journal_matrix(int order, int rows, int cols, double *a, int ld) {
  int major = order == RowMajor ? rows : cols;
  int minor = order == RowMajor ? cols : rows;
  if (major > 0 && minor > 0)
    journal_elements(a, (long)(major - 1) * ld + minor);
}

/* With no capsule live nothing needs saving (abi.h). */
#define JOURNAL_LIVE (__capsule_journal_depth != 0)

/* The steps of a call doing a * b * c multiply-adds (at least one, the
 * call's own; at most 2^62, where three 32-bit sizes would overflow). */
static int64_t work(int64_t a, int64_t b, int64_t c) {
  int64_t ab, w;
  if (a <= 0 || b <= 0 || c <= 0)
    return 1;
  if (__builtin_mul_overflow(a, b, &ab) || __builtin_mul_overflow(ab, c, &w) ||
      w > ((int64_t)1 << 62))
    return (int64_t)1 << 62;
  return w;
}

/*--- CBLAS -----------------------------------------------------------------*/

int64_t __capsule_blas_ddot_step(int n, const double *x, int incx,
                                 const double *y, int incy) {
  return work(n, 1, 1);
}

int64_t __capsule_blas_dnrm2_step(int n, const double *x, int incx) {
  return work(n, 1, 1);
}

int64_t __capsule_blas_daxpy_step(int n, double alpha, const double *x,
                                  int incx, double *y, int incy) {
  if (JOURNAL_LIVE)
    journal_vector(n, y, incy);
  return work(n, 1, 1);
}

int64_t __capsule_blas_dscal_step(int n, double alpha, double *x, int incx) {
  if (JOURNAL_LIVE)
    journal_vector(n, x, incx);
  return work(n, 1, 1);
}

int64_t __capsule_blas_dcopy_step(int n, const double *x, int incx, double *y,
                                  int incy) {
  if (JOURNAL_LIVE)
    journal_vector(n, y, incy);
  return work(n, 1, 1);
}

int64_t __capsule_blas_dswap_step(int n, double *x, int incx, double *y,
                                  int incy) {
  if (JOURNAL_LIVE) {
    journal_vector(n, x, incx);
    journal_vector(n, y, incy);
  }
  return work(n, 1, 1);
}

int64_t __capsule_blas_dasum_step(int n, const double *x, int incx) {
  return work(n, 1, 1);
}

int64_t __capsule_blas_drot_step(int n, double *x, int incx, double *y,
                                 int incy, double c, double s) {
  return __capsule_blas_dswap_step(n, x, incx, y, incy);
}

int64_t __capsule_blas_dgemv_step(int order, int trans, int m, int n,
                                  double alpha, const double *a, int lda,
                                  const double *x, int incx, double beta,
                                  double *y, int incy) {
  if (JOURNAL_LIVE)
    journal_vector(trans == NoTrans ? m : n, y, incy);
  return work(m, n, 1);
}

int64_t __capsule_blas_dger_step(int order, int m, int n, double alpha,
                                 const double *x, int incx, const double *y,
                                 int incy, double *a, int lda) {
  if (JOURNAL_LIVE)
    journal_matrix(order, m, n, a, lda);
  return work(m, n, 1);
}

int64_t __capsule_blas_dtrsv_step(int order, int uplo, int trans, int diag,
                                  int n, const double *a, int lda, double *x,
                                  int incx) {
  if (JOURNAL_LIVE)
    journal_vector(n, x, incx);
  return work(n, n, 1) / 2 + 1;
}

int64_t __capsule_blas_dtpsv_step(int order, int uplo, int trans, int diag,
                                  int n, const double *ap, double *x,
                                  int incx) {
  if (JOURNAL_LIVE)
    journal_vector(n, x, incx);
  return work(n, n, 1) / 2 + 1;
}

int64_t __capsule_blas_dsymv_step(int order, int uplo, int n, double alpha,
                                  const double *a, int lda, const double *x,
                                  int incx, double beta, double *y, int incy) {
  if (JOURNAL_LIVE)
    journal_vector(n, y, incy);
  return work(n, n, 1);
}

int64_t __capsule_blas_dgemm_step(int order, int transa, int transb, int m,
                                  int n, int k, double alpha, const double *a,
                                  int lda, const double *b, int ldb,
                                  double beta, double *c, int ldc) {
  if (JOURNAL_LIVE)
    journal_matrix(order, m, n, c, ldc);
  return work(m, n, k);
}

int64_t __capsule_blas_dtrsm_step(int order, int side, int uplo, int transa,
                                  int diag, int m, int n, double alpha,
                                  const double *a, int lda, double *b,
                                  int ldb) {
  if (JOURNAL_LIVE)
    journal_matrix(order, m, n, b, ldb);
  return side == Left ? work(m, m, n) / 2 + 1 : work(n, n, m) / 2 + 1;
}

int64_t __capsule_blas_dsymm_step(int order, int side, int uplo, int m, int n,
                                  double alpha, const double *a, int lda,
                                  const double *b, int ldb, double beta,
                                  double *c, int ldc) {
  if (JOURNAL_LIVE)
    journal_matrix(order, m, n, c, ldc);
  return work(m, n, side == Left ? m : n);
}

int64_t __capsule_blas_dsyr2k_step(int order, int uplo, int trans, int n, int k,
                                   double alpha, const double *a, int lda,
                                   const double *b, int ldb, double beta,
                                   double *c, int ldc) {
  if (JOURNAL_LIVE)
    journal_matrix(order, n, n, c, ldc);
  return work(n, n, k);
}

int64_t __capsule_blas_dspmv_step(int order, int uplo, int n, double alpha,
                                  const double *ap, const double *x, int incx,
                                  double beta, double *y, int incy) {
  if (JOURNAL_LIVE)
    journal_vector(n, y, incy);
  return work(n, n, 1) / 2 + 1;
}

int64_t __capsule_blas_dsyr_step(int order, int uplo, int n, double alpha,
                                 const double *x, int incx, double *a,
                                 int lda) {
  if (JOURNAL_LIVE)
    journal_matrix(order, n, n, a, lda);
  return work(n, n, 1) / 2 + 1;
}

int64_t __capsule_blas_dspr_step(int order, int uplo, int n, double alpha,
                                 const double *x, int incx, double *ap) {
  if (JOURNAL_LIVE)
    journal_elements(ap, (long)n * (n + 1) / 2);
  return work(n, n, 1) / 2 + 1;
}

int64_t __capsule_blas_dsyrk_step(int order, int uplo, int trans, int n, int k,
                                  double alpha, const double *a, int lda,
                                  double beta, double *c, int ldc) {
  if (JOURNAL_LIVE)
    journal_matrix(order, n, n, c, ldc);
  return work(n, n, k) / 2 + 1;
}

/*--- The Fortran interface (column-major, every argument by address) ------*/

static int trans_of(const char *c) {
  return *c == 'N' || *c == 'n' ? NoTrans : Trans;
}
static int side_of(const char *c) {
  return *c == 'L' || *c == 'l' ? Left : Right;
}

/* Each is its CBLAS twin's, column-major; the options and scalars the
 * journal and the cost do not depend on are passed as 0. */
int64_t __capsule_blas_f_ddot_step(const int *n, const double *x,
                                   const int *incx, const double *y,
                                   const int *incy) {
  return __capsule_blas_ddot_step(*n, x, *incx, y, *incy);
}

int64_t __capsule_blas_f_dnrm2_step(const int *n, const double *x,
                                    const int *incx) {
  return __capsule_blas_dnrm2_step(*n, x, *incx);
}

int64_t __capsule_blas_f_daxpy_step(const int *n, const double *alpha,
                                    const double *x, const int *incx, double *y,
                                    const int *incy) {
  return __capsule_blas_daxpy_step(*n, 0, x, *incx, y, *incy);
}

int64_t __capsule_blas_f_dscal_step(const int *n, const double *alpha,
                                    double *x, const int *incx) {
  return __capsule_blas_dscal_step(*n, 0, x, *incx);
}

int64_t __capsule_blas_f_dcopy_step(const int *n, const double *x,
                                    const int *incx, double *y,
                                    const int *incy) {
  return __capsule_blas_dcopy_step(*n, x, *incx, y, *incy);
}

int64_t __capsule_blas_f_dswap_step(const int *n, double *x, const int *incx,
                                    double *y, const int *incy) {
  return __capsule_blas_dswap_step(*n, x, *incx, y, *incy);
}

int64_t __capsule_blas_f_dasum_step(const int *n, const double *x,
                                    const int *incx) {
  return __capsule_blas_dasum_step(*n, x, *incx);
}

int64_t __capsule_blas_f_drot_step(const int *n, double *x, const int *incx,
                                   double *y, const int *incy, const double *c,
                                   const double *s) {
  return __capsule_blas_drot_step(*n, x, *incx, y, *incy, 0, 0);
}

int64_t __capsule_blas_f_dgemv_step(const char *trans, const int *m,
                                    const int *n, const double *alpha,
                                    const double *a, const int *lda,
                                    const double *x, const int *incx,
                                    const double *beta, double *y,
                                    const int *incy) {
  return __capsule_blas_dgemv_step(ColMajor, trans_of(trans), *m, *n, 0, a,
                                   *lda, x, *incx, 0, y, *incy);
}

int64_t __capsule_blas_f_dger_step(const int *m, const int *n,
                                   const double *alpha, const double *x,
                                   const int *incx, const double *y,
                                   const int *incy, double *a, const int *lda) {
  return __capsule_blas_dger_step(ColMajor, *m, *n, 0, x, *incx, y, *incy, a,
                                  *lda);
}

int64_t __capsule_blas_f_dtrsv_step(const char *uplo, const char *trans,
                                    const char *diag, const int *n,
                                    const double *a, const int *lda, double *x,
                                    const int *incx) {
  return __capsule_blas_dtrsv_step(ColMajor, 0, 0, 0, *n, a, *lda, x, *incx);
}

int64_t __capsule_blas_f_dtpsv_step(const char *uplo, const char *trans,
                                    const char *diag, const int *n,
                                    const double *ap, double *x,
                                    const int *incx) {
  return __capsule_blas_dtpsv_step(ColMajor, 0, 0, 0, *n, ap, x, *incx);
}

int64_t __capsule_blas_f_dsymv_step(const char *uplo, const int *n,
                                    const double *alpha, const double *a,
                                    const int *lda, const double *x,
                                    const int *incx, const double *beta,
                                    double *y, const int *incy) {
  return __capsule_blas_dsymv_step(ColMajor, 0, *n, 0, a, *lda, x, *incx, 0, y,
                                   *incy);
}

int64_t __capsule_blas_f_dgemm_step(const char *transa, const char *transb,
                                    const int *m, const int *n, const int *k,
                                    const double *alpha, const double *a,
                                    const int *lda, const double *b,
                                    const int *ldb, const double *beta,
                                    double *c, const int *ldc) {
  return __capsule_blas_dgemm_step(ColMajor, 0, 0, *m, *n, *k, 0, a, *lda, b,
                                   *ldb, 0, c, *ldc);
}

int64_t __capsule_blas_f_dtrsm_step(const char *side, const char *uplo,
                                    const char *transa, const char *diag,
                                    const int *m, const int *n,
                                    const double *alpha, const double *a,
                                    const int *lda, double *b, const int *ldb) {
  return __capsule_blas_dtrsm_step(ColMajor, side_of(side), 0, 0, 0, *m, *n, 0,
                                   a, *lda, b, *ldb);
}

int64_t __capsule_blas_f_dspmv_step(const char *uplo, const int *n,
                                    const double *alpha, const double *ap,
                                    const double *x, const int *incx,
                                    const double *beta, double *y,
                                    const int *incy) {
  return __capsule_blas_dspmv_step(ColMajor, 0, *n, 0, ap, x, *incx, 0, y,
                                   *incy);
}

int64_t __capsule_blas_f_dsyr_step(const char *uplo, const int *n,
                                   const double *alpha, const double *x,
                                   const int *incx, double *a, const int *lda) {
  return __capsule_blas_dsyr_step(ColMajor, 0, *n, 0, x, *incx, a, *lda);
}

int64_t __capsule_blas_f_dspr_step(const char *uplo, const int *n,
                                   const double *alpha, const double *x,
                                   const int *incx, double *ap) {
  return __capsule_blas_dspr_step(ColMajor, 0, *n, 0, x, *incx, ap);
}

int64_t __capsule_blas_f_dsyrk_step(const char *uplo, const char *trans,
                                    const int *n, const int *k,
                                    const double *alpha, const double *a,
                                    const int *lda, const double *beta,
                                    double *c, const int *ldc) {
  return __capsule_blas_dsyrk_step(ColMajor, 0, 0, *n, *k, 0, a, *lda, 0, c,
                                   *ldc);
}

int64_t __capsule_blas_f_dsymm_step(const char *side, const char *uplo,
                                    const int *m, const int *n,
                                    const double *alpha, const double *a,
                                    const int *lda, const double *b,
                                    const int *ldb, const double *beta,
                                    double *c, const int *ldc) {
  return __capsule_blas_dsymm_step(ColMajor, side_of(side), 0, *m, *n, 0, a,
                                   *lda, b, *ldb, 0, c, *ldc);
}

int64_t __capsule_blas_f_dsyr2k_step(const char *uplo, const char *trans,
                                     const int *n, const int *k,
                                     const double *alpha, const double *a,
                                     const int *lda, const double *b,
                                     const int *ldb, const double *beta,
                                     double *c, const int *ldc) {
  return __capsule_blas_dsyr2k_step(ColMajor, 0, 0, *n, *k, 0, a, *lda, b, *ldb,
                                    0, c, *ldc);
}

/* A triangular product writes and costs what the solve does. */
#define SAME_AS(name) __attribute__((alias(#name)))
int64_t __capsule_blas_dtrmv_step(int order, int uplo, int trans, int diag,
                                  int n, const double *a, int lda, double *x,
                                  int incx) SAME_AS(__capsule_blas_dtrsv_step);
int64_t __capsule_blas_dtpmv_step(int order, int uplo, int trans, int diag,
                                  int n, const double *ap, double *x, int incx)
    SAME_AS(__capsule_blas_dtpsv_step);
int64_t __capsule_blas_f_dtpmv_step(const char *uplo, const char *trans,
                                    const char *diag, const int *n,
                                    const double *ap, double *x,
                                    const int *incx)
    SAME_AS(__capsule_blas_f_dtpsv_step);
int64_t __capsule_blas_dtrmm_step(int order, int side, int uplo, int transa,
                                  int diag, int m, int n, double alpha,
                                  const double *a, int lda, double *b, int ldb)
    SAME_AS(__capsule_blas_dtrsm_step);
int64_t __capsule_blas_f_dtrmv_step(const char *uplo, const char *trans,
                                    const char *diag, const int *n,
                                    const double *a, const int *lda, double *x,
                                    const int *incx)
    SAME_AS(__capsule_blas_f_dtrsv_step);
int64_t __capsule_blas_f_dtrmm_step(const char *side, const char *uplo,
                                    const char *transa, const char *diag,
                                    const int *m, const int *n,
                                    const double *alpha, const double *a,
                                    const int *lda, double *b, const int *ldb)
    SAME_AS(__capsule_blas_f_dtrsm_step);
