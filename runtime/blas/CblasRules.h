/*===- CblasRules.h - The rules of the CBLAS routines -----------*- C -*-===*
 *
 * Defined in Level1.c, Level2.c and Level3.c (Blas.h has the convention);
 * the pass declares them itself (lib/Support/BlasRules.cpp), and the rules
 * of the Fortran interface call them (Fortran.c).
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_RUNTIME_CBLASRULES_H
#define CAPSULE_RUNTIME_CBLASRULES_H

#include "Blas.h"

tape_and_double __capsule_blas_ddot_aug(int n, int dn, const double *x,
                                        double *dx, int incx, int dincx,
                                        const double *y, double *dy, int incy,
                                        int dincy);
void __capsule_blas_ddot_grad(int n, int dn, const double *x, double *dx,
                              int incx, int dincx, const double *y, double *dy,
                              int incy, int dincy, double dr, void *tape);
dual __capsule_blas_ddot_tan(int n, int dn, const double *x, const double *dx,
                             int incx, int dincx, const double *y,
                             const double *dy, int incy, int dincy);
void *__capsule_blas_daxpy_aug(int n, int dn, double alpha, const double *x,
                               double *dx, int incx, int dincx, double *y,
                               double *dy, int incy, int dincy);
double __capsule_blas_daxpy_grad(int n, int dn, double alpha, const double *x,
                                 double *dx, int incx, int dincx, double *y,
                                 double *dy, int incy, int dincy, void *tape);
void __capsule_blas_daxpy_tan(int n, int dn, double alpha, double dalpha,
                              const double *x, const double *dx, int incx,
                              int dincx, double *y, double *dy, int incy,
                              int dincy);
void *__capsule_blas_dscal_aug(int n, int dn, double alpha, double *x,
                               double *dx, int incx, int dincx);
double __capsule_blas_dscal_grad(int n, int dn, double alpha, double *x,
                                 double *dx, int incx, int dincx, void *tape);
void __capsule_blas_dscal_tan(int n, int dn, double alpha, double dalpha,
                              double *x, double *dx, int incx, int dincx);
tape_and_double __capsule_blas_dnrm2_aug(int n, int dn, const double *x,
                                         double *dx, int incx, int dincx);
void __capsule_blas_dnrm2_grad(int n, int dn, const double *x, double *dx,
                               int incx, int dincx, double dr, void *tape);
dual __capsule_blas_dnrm2_tan(int n, int dn, const double *x, const double *dx,
                              int incx, int dincx);
void __capsule_blas_dcopy_aug(int n, int dn, const double *x, double *dx,
                              int incx, int dincx, double *y, double *dy,
                              int incy, int dincy);
void __capsule_blas_dcopy_grad(int n, int dn, const double *x, double *dx,
                               int incx, int dincx, double *y, double *dy,
                               int incy, int dincy);
void __capsule_blas_dcopy_tan(int n, int dn, const double *x, const double *dx,
                              int incx, int dincx, double *y, double *dy,
                              int incy, int dincy);
void __capsule_blas_dswap_aug(int n, int dn, double *x, double *dx, int incx,
                              int dincx, double *y, double *dy, int incy,
                              int dincy);
void __capsule_blas_dswap_grad(int n, int dn, double *x, double *dx, int incx,
                               int dincx, double *y, double *dy, int incy,
                               int dincy);
void __capsule_blas_dswap_tan(int n, int dn, double *x, double *dx, int incx,
                              int dincx, double *y, double *dy, int incy,
                              int dincy);
tape_and_double __capsule_blas_dasum_aug(int n, int dn, const double *x,
                                         double *dx, int incx, int dincx);
void __capsule_blas_dasum_grad(int n, int dn, const double *x, double *dx,
                               int incx, int dincx, double dr, void *tape);
dual __capsule_blas_dasum_tan(int n, int dn, const double *x, const double *dx,
                              int incx, int dincx);
void *__capsule_blas_drot_aug(int n, int dn, double *x, double *dx, int incx,
                              int dincx, double *y, double *dy, int incy,
                              int dincy, double c, double s);
two_adjoints __capsule_blas_drot_grad(int n, int dn, double *x, double *dx,
                                      int incx, int dincx, double *y,
                                      double *dy, int incy, int dincy, double c,
                                      double s, void *tape);
void __capsule_blas_drot_tan(int n, int dn, double *x, double *dx, int incx,
                             int dincx, double *y, double *dy, int incy,
                             int dincy, double c, double dc, double s,
                             double ds);
void *__capsule_blas_dgemv_aug(int order, int dorder, int trans, int dtrans,
                               int m, int dm, int n, int dn, double alpha,
                               const double *a, double *da, int lda, int dlda,
                               const double *x, double *dx, int incx, int dincx,
                               double beta, double *y, double *dy, int incy,
                               int dincy);
two_adjoints __capsule_blas_dgemv_grad(
    int order, int dorder, int trans, int dtrans, int m, int dm, int n, int dn,
    double alpha, const double *a, double *da, int lda, int dlda,
    const double *x, double *dx, int incx, int dincx, double beta, double *y,
    double *dy, int incy, int dincy, void *tape);
void __capsule_blas_dgemv_tan(int order, int dorder, int trans, int dtrans,
                              int m, int dm, int n, int dn, double alpha,
                              double dalpha, const double *a, const double *da,
                              int lda, int dlda, const double *x,
                              const double *dx, int incx, int dincx,
                              double beta, double dbeta, double *y, double *dy,
                              int incy, int dincy);
void *__capsule_blas_dger_aug(int order, int dorder, int m, int dm, int n,
                              int dn, double alpha, const double *x, double *dx,
                              int incx, int dincx, const double *y, double *dy,
                              int incy, int dincy, double *a, double *da,
                              int lda, int dlda);
double __capsule_blas_dger_grad(int order, int dorder, int m, int dm, int n,
                                int dn, double alpha, const double *x,
                                double *dx, int incx, int dincx,
                                const double *y, double *dy, int incy,
                                int dincy, double *a, double *da, int lda,
                                int dlda, void *tape);
void __capsule_blas_dger_tan(int order, int dorder, int m, int dm, int n,
                             int dn, double alpha, double dalpha,
                             const double *x, const double *dx, int incx,
                             int dincx, const double *y, const double *dy,
                             int incy, int dincy, double *a, double *da,
                             int lda, int dlda);
/* The rules of the triangular routines on a vector, dtrsv and dtrmv, which
 * take the same arguments. */
typedef void *triangular_vector_aug(int order, int dorder, int uplo, int duplo,
                                    int trans, int dtrans, int diag, int ddiag,
                                    int n, int dn, const double *a, double *da,
                                    int lda, int dlda, double *x, double *dx,
                                    int incx, int dincx);
typedef void triangular_vector_grad(int order, int dorder, int uplo, int duplo,
                                    int trans, int dtrans, int diag, int ddiag,
                                    int n, int dn, const double *a, double *da,
                                    int lda, int dlda, double *x, double *dx,
                                    int incx, int dincx, void *tape);
typedef void triangular_vector_tan(int order, int dorder, int uplo, int duplo,
                                   int trans, int dtrans, int diag, int ddiag,
                                   int n, int dn, const double *a,
                                   const double *da, int lda, int dlda,
                                   double *x, double *dx, int incx, int dincx);
triangular_vector_aug __capsule_blas_dtrsv_aug, __capsule_blas_dtrmv_aug;
triangular_vector_grad __capsule_blas_dtrsv_grad, __capsule_blas_dtrmv_grad;
triangular_vector_tan __capsule_blas_dtrsv_tan, __capsule_blas_dtrmv_tan;
/* Those of dtpsv and dtpmv, their packed forms. */
typedef void *packed_triangular_aug(int order, int dorder, int uplo, int duplo,
                                    int trans, int dtrans, int diag, int ddiag,
                                    int n, int dn, const double *ap,
                                    double *dap, double *x, double *dx,
                                    int incx, int dincx);
typedef void packed_triangular_grad(int order, int dorder, int uplo, int duplo,
                                    int trans, int dtrans, int diag, int ddiag,
                                    int n, int dn, const double *ap,
                                    double *dap, double *x, double *dx,
                                    int incx, int dincx, void *tape);
typedef void packed_triangular_tan(int order, int dorder, int uplo, int duplo,
                                   int trans, int dtrans, int diag, int ddiag,
                                   int n, int dn, const double *ap,
                                   const double *dap, double *x, double *dx,
                                   int incx, int dincx);
packed_triangular_aug __capsule_blas_dtpsv_aug, __capsule_blas_dtpmv_aug;
packed_triangular_grad __capsule_blas_dtpsv_grad, __capsule_blas_dtpmv_grad;
packed_triangular_tan __capsule_blas_dtpsv_tan, __capsule_blas_dtpmv_tan;
void *__capsule_blas_dgemm_aug(int order, int dorder, int transa, int dtransa,
                               int transb, int dtransb, int m, int dm, int n,
                               int dn, int k, int dk, double alpha,
                               const double *a, double *da, int lda, int dlda,
                               const double *b, double *db, int ldb, int dldb,
                               double beta, double *c, double *dc, int ldc,
                               int dldc);
two_adjoints
__capsule_blas_dgemm_grad(int order, int dorder, int transa, int dtransa,
                          int transb, int dtransb, int m, int dm, int n, int dn,
                          int k, int dk, double alpha, const double *a,
                          double *da, int lda, int dlda, const double *b,
                          double *db, int ldb, int dldb, double beta, double *c,
                          double *dc, int ldc, int dldc, void *tape);
void __capsule_blas_dgemm_tan(int order, int dorder, int transa, int dtransa,
                              int transb, int dtransb, int m, int dm, int n,
                              int dn, int k, int dk, double alpha,
                              double dalpha, const double *a, const double *da,
                              int lda, int dlda, const double *b,
                              const double *db, int ldb, int dldb, double beta,
                              double dbeta, double *c, double *dc, int ldc,
                              int dldc);
/* The rules of the triangular routines on a matrix, dtrsm and dtrmm, which
 * take the same arguments. */
typedef void *triangular_matrix_aug(int order, int dorder, int side, int dside,
                                    int uplo, int duplo, int transa,
                                    int dtransa, int diag, int ddiag, int m,
                                    int dm, int n, int dn, double alpha,
                                    const double *a, double *da, int lda,
                                    int dlda, double *b, double *db, int ldb,
                                    int dldb);
typedef double triangular_matrix_grad(int order, int dorder, int side,
                                      int dside, int uplo, int duplo,
                                      int transa, int dtransa, int diag,
                                      int ddiag, int m, int dm, int n, int dn,
                                      double alpha, const double *a, double *da,
                                      int lda, int dlda, double *b, double *db,
                                      int ldb, int dldb, void *tape);
typedef void triangular_matrix_tan(int order, int dorder, int side, int dside,
                                   int uplo, int duplo, int transa, int dtransa,
                                   int diag, int ddiag, int m, int dm, int n,
                                   int dn, double alpha, double dalpha,
                                   const double *a, const double *da, int lda,
                                   int dlda, double *b, double *db, int ldb,
                                   int dldb);
triangular_matrix_aug __capsule_blas_dtrsm_aug, __capsule_blas_dtrmm_aug;
triangular_matrix_grad __capsule_blas_dtrsm_grad, __capsule_blas_dtrmm_grad;
triangular_matrix_tan __capsule_blas_dtrsm_tan, __capsule_blas_dtrmm_tan;

void *__capsule_blas_dsymv_aug(int order, int dorder, int uplo, int duplo,
                               int n, int dn, double alpha, const double *a,
                               double *da, int lda, int dlda, const double *x,
                               double *dx, int incx, int dincx, double beta,
                               double *y, double *dy, int incy, int dincy);
two_adjoints __capsule_blas_dsymv_grad(int order, int dorder, int uplo,
                                       int duplo, int n, int dn, double alpha,
                                       const double *a, double *da, int lda,
                                       int dlda, const double *x, double *dx,
                                       int incx, int dincx, double beta,
                                       double *y, double *dy, int incy,
                                       int dincy, void *tape);
void __capsule_blas_dsymv_tan(int order, int dorder, int uplo, int duplo, int n,
                              int dn, double alpha, double dalpha,
                              const double *a, const double *da, int lda,
                              int dlda, const double *x, const double *dx,
                              int incx, int dincx, double beta, double dbeta,
                              double *y, double *dy, int incy, int dincy);
void *__capsule_blas_dspmv_aug(int order, int dorder, int uplo, int duplo,
                               int n, int dn, double alpha, const double *ap,
                               double *dap, const double *x, double *dx,
                               int incx, int dincx, double beta, double *y,
                               double *dy, int incy, int dincy);
two_adjoints __capsule_blas_dspmv_grad(int order, int dorder, int uplo,
                                       int duplo, int n, int dn, double alpha,
                                       const double *ap, double *dap,
                                       const double *x, double *dx, int incx,
                                       int dincx, double beta, double *y,
                                       double *dy, int incy, int dincy,
                                       void *tape);
void __capsule_blas_dspmv_tan(int order, int dorder, int uplo, int duplo, int n,
                              int dn, double alpha, double dalpha,
                              const double *ap, const double *dap,
                              const double *x, const double *dx, int incx,
                              int dincx, double beta, double dbeta, double *y,
                              double *dy, int incy, int dincy);
void *__capsule_blas_dsyr_aug(int order, int dorder, int uplo, int duplo, int n,
                              int dn, double alpha, const double *x, double *dx,
                              int incx, int dincx, double *a, double *da,
                              int lda, int dlda);
double __capsule_blas_dsyr_grad(int order, int dorder, int uplo, int duplo,
                                int n, int dn, double alpha, const double *x,
                                double *dx, int incx, int dincx, double *a,
                                double *da, int lda, int dlda, void *tape);
void __capsule_blas_dsyr_tan(int order, int dorder, int uplo, int duplo, int n,
                             int dn, double alpha, double dalpha,
                             const double *x, const double *dx, int incx,
                             int dincx, double *a, double *da, int lda,
                             int dlda);
void *__capsule_blas_dspr_aug(int order, int dorder, int uplo, int duplo, int n,
                              int dn, double alpha, const double *x, double *dx,
                              int incx, int dincx, double *ap, double *dap);
double __capsule_blas_dspr_grad(int order, int dorder, int uplo, int duplo,
                                int n, int dn, double alpha, const double *x,
                                double *dx, int incx, int dincx, double *ap,
                                double *dap, void *tape);
void __capsule_blas_dspr_tan(int order, int dorder, int uplo, int duplo, int n,
                             int dn, double alpha, double dalpha,
                             const double *x, const double *dx, int incx,
                             int dincx, double *ap, double *dap);
void *__capsule_blas_dsyrk_aug(int order, int dorder, int uplo, int duplo,
                               int trans, int dtrans, int n, int dn, int k,
                               int dk, double alpha, const double *a,
                               double *da, int lda, int dlda, double beta,
                               double *c, double *dc, int ldc, int dldc);
two_adjoints __capsule_blas_dsyrk_grad(int order, int dorder, int uplo,
                                       int duplo, int trans, int dtrans, int n,
                                       int dn, int k, int dk, double alpha,
                                       const double *a, double *da, int lda,
                                       int dlda, double beta, double *c,
                                       double *dc, int ldc, int dldc,
                                       void *tape);
void __capsule_blas_dsyrk_tan(int order, int dorder, int uplo, int duplo,
                              int trans, int dtrans, int n, int dn, int k,
                              int dk, double alpha, double dalpha,
                              const double *a, const double *da, int lda,
                              int dlda, double beta, double dbeta, double *c,
                              double *dc, int ldc, int dldc);
/* The rules of dsymm and dsyr2k, which take the same arguments: two options
 * (side and triangle; triangle and transpose), two sizes, alpha, A, B, beta
 * and C. */
typedef void *operand_pair_aug(int order, int dorder, int option1, int doption1,
                               int option2, int doption2, int size1, int dsize1,
                               int size2, int dsize2, double alpha,
                               const double *a, double *da, int lda, int dlda,
                               const double *b, double *db, int ldb, int dldb,
                               double beta, double *c, double *dc, int ldc,
                               int dldc);
typedef two_adjoints
operand_pair_grad(int order, int dorder, int option1, int doption1, int option2,
                  int doption2, int size1, int dsize1, int size2, int dsize2,
                  double alpha, const double *a, double *da, int lda, int dlda,
                  const double *b, double *db, int ldb, int dldb, double beta,
                  double *c, double *dc, int ldc, int dldc, void *tape);
typedef void operand_pair_tan(int order, int dorder, int option1, int doption1,
                              int option2, int doption2, int size1, int dsize1,
                              int size2, int dsize2, double alpha,
                              double dalpha, const double *a, const double *da,
                              int lda, int dlda, const double *b,
                              const double *db, int ldb, int dldb, double beta,
                              double dbeta, double *c, double *dc, int ldc,
                              int dldc);
operand_pair_aug __capsule_blas_dsymm_aug, __capsule_blas_dsyr2k_aug;
operand_pair_grad __capsule_blas_dsymm_grad, __capsule_blas_dsyr2k_grad;
operand_pair_tan __capsule_blas_dsymm_tan, __capsule_blas_dsyr2k_tan;

#endif
