/* The Fortran interface of the level-1 BLAS routines and of the general
 * and triangular level-2 and level-3 ones that Capsule has rules for (the
 * tests of the symmetric and packed ones declare theirs), declared as a
 * program declares them itself, not from OpenBLAS's f77blas.h: every
 * argument by address, with gfortran's hidden lengths of the character
 * arguments when the test defines STRLEN (fortran_lengths.h). */
#ifndef FORTRAN_BLAS_H
#define FORTRAN_BLAS_H
#include "fortran_lengths.h"

double ddot_(const int *n, const double *x, const int *incx, const double *y,
             const int *incy);
void daxpy_(const int *n, const double *alpha, const double *x,
            const int *incx, double *y, const int *incy);
void dscal_(const int *n, const double *alpha, double *x, const int *incx);
double dnrm2_(const int *n, const double *x, const int *incx);
void dcopy_(const int *n, const double *x, const int *incx, double *y,
            const int *incy);
void dswap_(const int *n, double *x, const int *incx, double *y,
            const int *incy);
double dasum_(const int *n, const double *x, const int *incx);
void drot_(const int *n, double *x, const int *incx, double *y,
           const int *incy, const double *c, const double *s);
int idamax_(const int *n, const double *x, const int *incx);
void dgemv_(const char *trans, const int *m, const int *n, const double *alpha,
            const double *a, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy STRLENS(1));
void dger_(const int *m, const int *n, const double *alpha, const double *x,
           const int *incx, const double *y, const int *incy, double *a,
           const int *lda);
void dgemm_(const char *transa, const char *transb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a, const int *lda,
            const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc STRLENS(2));
void dtrsv_(const char *uplo, const char *trans, const char *diag, const int *n,
            const double *a, const int *lda, double *x,
            const int *incx STRLENS(3));
void dtrmv_(const char *uplo, const char *trans, const char *diag, const int *n,
            const double *a, const int *lda, double *x,
            const int *incx STRLENS(3));
void dtrsm_(const char *side, const char *uplo, const char *transa,
            const char *diag, const int *m, const int *n, const double *alpha,
            const double *a, const int *lda, double *b,
            const int *ldb STRLENS(4));
void dtrmm_(const char *side, const char *uplo, const char *transa,
            const char *diag, const int *m, const int *n, const double *alpha,
            const double *a, const int *lda, double *b,
            const int *ldb STRLENS(4));
#endif
