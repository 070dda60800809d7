/*===- Blas.h - What the runtime's BLAS rules share -------------*- C -*-===*
 *
 * The rules the pass attaches to the CBLAS routines and to their Fortran
 * interface (lib/Support/BlasRules.cpp) are C functions in the custom-rule
 * convention (docs/user-guide.md, "Custom derivatives"): every argument that
 * is not floating point is followed by its shadow; the augmented forward
 * rule runs the routine and returns a tape (copies of the inputs the
 * gradient needs, since the program may overwrite them before the reverse
 * sweep) and the result; the gradient rule adds into the shadows (or, for
 * what the routine overwrote, sets them) and returns the adjoints of the
 * scalars; the tangent rule takes every argument followed by its tangent.
 * Each calls BLAS for the adjoints and tangents, so a program's BLAS does
 * the work in every mode.
 *
 * The prototypes are written here rather than taken from cblas.h, which the
 * runtime does not need to build: the pass attaches these rules only to
 * routines whose integer and enumeration parameters are 32-bit, as these
 * definitions assume. A program that calls BLAS links its BLAS; these files
 * are only pulled out of the archive by the rules' calls. Complex
 * conjugation does not apply: CblasConjTrans is CblasTrans. With beta == 0,
 * BLAS does not read y (or C): the adjoint of beta is then 0.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_RUNTIME_BLAS_H
#define CAPSULE_RUNTIME_BLAS_H

#include <stddef.h>

/* CBLAS's enumerations. */
enum {
  RowMajor = 101,
  ColMajor = 102,
  NoTrans = 111,
  Trans = 112,
  Upper = 121,
  Lower = 122,
  NonUnit = 131,
  Unit = 132,
  Left = 141,
  Right = 142
};

double cblas_ddot(int n, const double *x, int incx, const double *y, int incy);
void cblas_daxpy(int n, double alpha, const double *x, int incx, double *y,
                 int incy);
void cblas_dscal(int n, double alpha, double *x, int incx);
double cblas_dnrm2(int n, const double *x, int incx);
void cblas_dcopy(int n, const double *x, int incx, double *y, int incy);
void cblas_dswap(int n, double *x, int incx, double *y, int incy);
double cblas_dasum(int n, const double *x, int incx);
void cblas_drot(int n, double *x, int incx, double *y, int incy, double c,
                double s);
void cblas_dgemv(int order, int trans, int m, int n, double alpha,
                 const double *a, int lda, const double *x, int incx,
                 double beta, double *y, int incy);
void cblas_dger(int order, int m, int n, double alpha, const double *x,
                int incx, const double *y, int incy, double *a, int lda);
void cblas_dsymv(int order, int uplo, int n, double alpha, const double *a,
                 int lda, const double *x, int incx, double beta, double *y,
                 int incy);
void cblas_dtrmv(int order, int uplo, int trans, int diag, int n,
                 const double *a, int lda, double *x, int incx);
void cblas_dtrsv(int order, int uplo, int trans, int diag, int n,
                 const double *a, int lda, double *x, int incx);
void cblas_dgemm(int order, int transa, int transb, int m, int n, int k,
                 double alpha, const double *a, int lda, const double *b,
                 int ldb, double beta, double *c, int ldc);
void cblas_dspmv(int order, int uplo, int n, double alpha, const double *ap,
                 const double *x, int incx, double beta, double *y, int incy);
void cblas_dsyr(int order, int uplo, int n, double alpha, const double *x,
                int incx, double *a, int lda);
void cblas_dsyrk(int order, int uplo, int trans, int n, int k, double alpha,
                 const double *a, int lda, double beta, double *c, int ldc);
void cblas_dsymm(int order, int side, int uplo, int m, int n, double alpha,
                 const double *a, int lda, const double *b, int ldb,
                 double beta, double *c, int ldc);
void cblas_dsyr2k(int order, int uplo, int trans, int n, int k, double alpha,
                  const double *a, int lda, const double *b, int ldb,
                  double beta, double *c, int ldc);
void cblas_dtrmm(int order, int side, int uplo, int transa, int diag, int m,
                 int n, double alpha, const double *a, int lda, double *b,
                 int ldb);
void cblas_dtrsm(int order, int side, int uplo, int transa, int diag, int m,
                 int n, double alpha, const double *a, int lda, double *b,
                 int ldb);

/* What the rules return, as C returns the custom-rule convention's
 * structures. */
typedef struct {
  void *tape;
  double result;
} tape_and_double;
typedef struct {
  double value, tangent;
} dual;
typedef struct {
  double dalpha, dbeta;
} two_adjoints;

/* Memory for the rules' copies, which come and go in last-in first-out
 * order: freed blocks are kept per thread for the next calls (Scratch.c).
 * Compiled as bodies that nested derivatives differentiate
 * (CAPSULE_RULE_BODIES, lib/Support/LibraryBodies.h), the rules take plain
 * heap blocks instead, whose shadows and tangents derivatives follow. */
#ifdef CAPSULE_RULE_BODIES
#include <stdlib.h>
static inline void *__capsule_blas_scratch_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    abort();
  return p;
}
static inline void __capsule_blas_scratch_free(void *p) { free(p); }
#else
void *__capsule_blas_scratch_alloc(size_t bytes);
void __capsule_blas_scratch_free(void *p);
/* Reverse vector mode runs a gradient rule once per lane on the tape of
 * one augmented call: while keep is set, the rules' frees are skipped, so
 * that the tape outlives all but the last lane (which runs with it unset).
 * The gradient rules only read their tapes. */
void __capsule_blas_keep_tapes(int keep);
#endif

/* Packed copies of a BLAS vector and of a rows x cols matrix. */
double *__capsule_blas_vector_copy(int n, const double *x, int inc);
double *__capsule_blas_matrix_copy(int order, int rows, int cols,
                                   const double *a, int ld);

/* Element i of a BLAS vector with stride inc (negative strides run from the
 * end, as BLAS reads them). */
static inline double *element(double *x, int n, int inc, int i) {
  return x + (inc > 0 ? (long)i * inc : (long)(n - 1 - i) * -inc);
}

/* Element (i, j) of a matrix stored in order with leading dimension ld. */
static inline double *at(int order, double *a, int ld, int i, int j) {
  return order == RowMajor ? a + (long)i * ld + j : a + i + (long)j * ld;
}

/* The leading dimension of a packed rows x cols matrix in order. */
static inline int packed_ld(int order, int rows, int cols) {
  int ld = order == RowMajor ? cols : rows;
  return ld > 0 ? ld : 1;
}

static inline void scale_vector(int n, double s, double *x, int inc) {
  for (int i = 0; i < n; ++i)
    *element(x, n, inc, i) *= s;
}

/* sum over a rows x cols matrix of a(i, j) * b(i, j). */
static inline double frobenius(int order, int rows, int cols, const double *a,
                               int lda, const double *b, int ldb) {
  double sum = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      sum += *at(order, (double *)a, lda, i, j) *
             *at(order, (double *)b, ldb, i, j);
  return sum;
}

static inline int flip(int trans) { return trans == NoTrans ? Trans : NoTrans; }

/* Whether element (i, j) is one a triangular routine reads. */
static inline int in_triangle(int uplo, int diag, int i, int j) {
  if (i == j)
    return diag != Unit;
  return uplo == Upper ? j > i : i > j;
}

#endif
