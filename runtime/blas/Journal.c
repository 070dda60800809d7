/*===- Journal.c - What the BLAS routines write, for the journal ----------===*
 *
 * Interruptible and checkpointed code re-executes from capsules, which
 * restore the memory the code wrote. Instrumented code journals its own
 * stores; a BLAS routine is not instrumented, so the pass calls the
 * routine's journal function here, with the routine's own arguments, just
 * before the routine (lib/Interrupt/StepInstrumentation.cpp). It saves the
 * span of memory the routine may write: the output vector from its first to
 * its last element, or the output matrix from its first to its last column
 * (row, in row-major order) with the gaps the leading dimension leaves.
 * Saving bytes the routine does not write is harmless: restoring gives them
 * back the values they had anyway. ddot and dnrm2 write nothing.
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

/*--- CBLAS -----------------------------------------------------------------*/

void __capsule_blas_daxpy_journal(int n, double alpha, const double *x,
                                  int incx, double *y, int incy) {
  if (JOURNAL_LIVE)
    journal_vector(n, y, incy);
}

void __capsule_blas_dscal_journal(int n, double alpha, double *x, int incx) {
  if (JOURNAL_LIVE)
    journal_vector(n, x, incx);
}

void __capsule_blas_dcopy_journal(int n, const double *x, int incx, double *y,
                                  int incy) {
  if (JOURNAL_LIVE)
    journal_vector(n, y, incy);
}

void __capsule_blas_dgemv_journal(int order, int trans, int m, int n,
                                  double alpha, const double *a, int lda,
                                  const double *x, int incx, double beta,
                                  double *y, int incy) {
  if (JOURNAL_LIVE)
    journal_vector(trans == NoTrans ? m : n, y, incy);
}

void __capsule_blas_dger_journal(int order, int m, int n, double alpha,
                                 const double *x, int incx, const double *y,
                                 int incy, double *a, int lda) {
  if (JOURNAL_LIVE)
    journal_matrix(order, m, n, a, lda);
}

void __capsule_blas_dtrsv_journal(int order, int uplo, int trans, int diag,
                                  int n, const double *a, int lda, double *x,
                                  int incx) {
  if (JOURNAL_LIVE)
    journal_vector(n, x, incx);
}

void __capsule_blas_dsymv_journal(int order, int uplo, int n, double alpha,
                                  const double *a, int lda, const double *x,
                                  int incx, double beta, double *y, int incy) {
  if (JOURNAL_LIVE)
    journal_vector(n, y, incy);
}

void __capsule_blas_dgemm_journal(int order, int transa, int transb, int m,
                                  int n, int k, double alpha, const double *a,
                                  int lda, const double *b, int ldb,
                                  double beta, double *c, int ldc) {
  if (JOURNAL_LIVE)
    journal_matrix(order, m, n, c, ldc);
}

void __capsule_blas_dtrsm_journal(int order, int side, int uplo, int transa,
                                  int diag, int m, int n, double alpha,
                                  const double *a, int lda, double *b,
                                  int ldb) {
  if (JOURNAL_LIVE)
    journal_matrix(order, m, n, b, ldb);
}

void __capsule_blas_dsyrk_journal(int order, int uplo, int trans, int n, int k,
                                  double alpha, const double *a, int lda,
                                  double beta, double *c, int ldc) {
  if (JOURNAL_LIVE)
    journal_matrix(order, n, n, c, ldc);
}

/*--- The Fortran interface (column-major, every argument by address) ------*/

static int no_trans(const char *c) { return *c == 'N' || *c == 'n'; }

void __capsule_blas_f_daxpy_journal(const int *n, const double *alpha,
                                    const double *x, const int *incx, double *y,
                                    const int *incy) {
  if (JOURNAL_LIVE)
    journal_vector(*n, y, *incy);
}

void __capsule_blas_f_dscal_journal(const int *n, const double *alpha,
                                    double *x, const int *incx) {
  if (JOURNAL_LIVE)
    journal_vector(*n, x, *incx);
}

void __capsule_blas_f_dcopy_journal(const int *n, const double *x,
                                    const int *incx, double *y,
                                    const int *incy) {
  if (JOURNAL_LIVE)
    journal_vector(*n, y, *incy);
}

void __capsule_blas_f_dgemv_journal(const char *trans, const int *m,
                                    const int *n, const double *alpha,
                                    const double *a, const int *lda,
                                    const double *x, const int *incx,
                                    const double *beta, double *y,
                                    const int *incy) {
  if (JOURNAL_LIVE)
    journal_vector(no_trans(trans) ? *m : *n, y, *incy);
}

void __capsule_blas_f_dger_journal(const int *m, const int *n,
                                   const double *alpha, const double *x,
                                   const int *incx, const double *y,
                                   const int *incy, double *a, const int *lda) {
  if (JOURNAL_LIVE)
    journal_matrix(ColMajor, *m, *n, a, *lda);
}

void __capsule_blas_f_dtrsv_journal(const char *uplo, const char *trans,
                                    const char *diag, const int *n,
                                    const double *a, const int *lda, double *x,
                                    const int *incx) {
  if (JOURNAL_LIVE)
    journal_vector(*n, x, *incx);
}

void __capsule_blas_f_dsymv_journal(const char *uplo, const int *n,
                                    const double *alpha, const double *a,
                                    const int *lda, const double *x,
                                    const int *incx, const double *beta,
                                    double *y, const int *incy) {
  if (JOURNAL_LIVE)
    journal_vector(*n, y, *incy);
}

void __capsule_blas_f_dgemm_journal(const char *transa, const char *transb,
                                    const int *m, const int *n, const int *k,
                                    const double *alpha, const double *a,
                                    const int *lda, const double *b,
                                    const int *ldb, const double *beta,
                                    double *c, const int *ldc) {
  if (JOURNAL_LIVE)
    journal_matrix(ColMajor, *m, *n, c, *ldc);
}

void __capsule_blas_f_dtrsm_journal(const char *side, const char *uplo,
                                    const char *transa, const char *diag,
                                    const int *m, const int *n,
                                    const double *alpha, const double *a,
                                    const int *lda, double *b, const int *ldb) {
  if (JOURNAL_LIVE)
    journal_matrix(ColMajor, *m, *n, b, *ldb);
}

void __capsule_blas_f_dsyrk_journal(const char *uplo, const char *trans,
                                    const int *n, const int *k,
                                    const double *alpha, const double *a,
                                    const int *lda, const double *beta,
                                    double *c, const int *ldc) {
  if (JOURNAL_LIVE)
    journal_matrix(ColMajor, *n, *n, c, *ldc);
}
