/*===- Fortran.c - Rules of the Fortran BLAS interface -------------------===*
 *
 * ddot_, daxpy_, dscal_, dnrm2_, dcopy_, dswap_, dasum_, drot_, dgemv_, dger_,
 * dtpsv_, dtpmv_, dspmv_, dsyr_, dspr_,
 * dtrsv_, dtrmv_,
 * dsymv_, dgemm_, dtrsm_, dtrmm_, dsymm_, dsyrk_ and dsyr2k_ as C programs
 * call them: every
 * argument by address, matrices column-major, options as characters ('N',
 * 'T', 'U', 'L', ...), no hidden string lengths (OpenBLAS's f77blas.h); the
 * pass calls them through shims that drop those lengths where a program
 * declares them (Support/LibraryRules.cpp). Each rule reads the arguments
 * and calls the CBLAS routine's rule (CblasRules.h).
 * The scalars the program passed by address may change before the reverse
 * sweep, so the augmented rule keeps their values on its tape for the
 * gradient; the adjoints of alpha and beta are added into their shadows.
 *===----------------------------------------------------------------------===*/
#include "CblasRules.h"

/* The values of a call's scalar arguments and the CBLAS rule's tape. */
typedef struct {
  void *inner;
  int arg[8]; /* integers and options (as CBLAS enumerations), in order */
  double alpha, beta;
} fortran_tape;

static fortran_tape *keep_scalars(void *inner, int count, const int *args,
                                  double alpha, double beta) {
  fortran_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->inner = inner;
  for (int i = 0; i < count; ++i)
    t->arg[i] = args[i];
  t->alpha = alpha;
  t->beta = beta;
  return t;
}

static int is(const char *option, char letter) {
  return *option == letter || *option == letter + ('a' - 'A');
}

static int trans_of(const char *c) { return is(c, 'N') ? NoTrans : Trans; }
static int uplo_of(const char *c) { return is(c, 'U') ? Upper : Lower; }
static int diag_of(const char *c) { return is(c, 'U') ? Unit : NonUnit; }
static int side_of(const char *c) { return is(c, 'L') ? Left : Right; }

/*--- ddot_ ----------------------------------------------------------------*/

tape_and_double __capsule_blas_f_ddot_aug(const int *n, const int *dn,
                                          const double *x, double *dx,
                                          const int *incx, const int *dincx,
                                          const double *y, double *dy,
                                          const int *incy, const int *dincy) {
  tape_and_double r =
      __capsule_blas_ddot_aug(*n, 0, x, dx, *incx, 0, y, dy, *incy, 0);
  r.tape = keep_scalars(r.tape, 3, (int[]){*n, *incx, *incy}, 0, 0);
  return r;
}

void __capsule_blas_f_ddot_grad(const int *n, const int *dn, const double *x,
                                double *dx, const int *incx, const int *dincx,
                                const double *y, double *dy, const int *incy,
                                const int *dincy, double dr, void *tape) {
  fortran_tape *t = tape;
  __capsule_blas_ddot_grad(t->arg[0], 0, x, dx, t->arg[1], 0, y, dy, t->arg[2],
                           0, dr, t->inner);
  __capsule_blas_scratch_free(t);
}

dual __capsule_blas_f_ddot_tan(const int *n, const int *dn, const double *x,
                               const double *dx, const int *incx,
                               const int *dincx, const double *y,
                               const double *dy, const int *incy,
                               const int *dincy) {
  return __capsule_blas_ddot_tan(*n, 0, x, dx, *incx, 0, y, dy, *incy, 0);
}

/*--- daxpy_ ---------------------------------------------------------------*/

void *__capsule_blas_f_daxpy_aug(const int *n, const int *dn,
                                 const double *alpha, double *dalpha,
                                 const double *x, double *dx, const int *incx,
                                 const int *dincx, double *y, double *dy,
                                 const int *incy, const int *dincy) {
  void *inner =
      __capsule_blas_daxpy_aug(*n, 0, *alpha, x, dx, *incx, 0, y, dy, *incy, 0);
  return keep_scalars(inner, 3, (int[]){*n, *incx, *incy}, *alpha, 0);
}

void __capsule_blas_f_daxpy_grad(const int *n, const int *dn,
                                 const double *alpha, double *dalpha,
                                 const double *x, double *dx, const int *incx,
                                 const int *dincx, double *y, double *dy,
                                 const int *incy, const int *dincy,
                                 void *tape) {
  fortran_tape *t = tape;
  *dalpha += __capsule_blas_daxpy_grad(t->arg[0], 0, t->alpha, x, dx, t->arg[1],
                                       0, y, dy, t->arg[2], 0, t->inner);
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_daxpy_tan(const int *n, const int *dn,
                                const double *alpha, const double *dalpha,
                                const double *x, const double *dx,
                                const int *incx, const int *dincx, double *y,
                                double *dy, const int *incy, const int *dincy) {
  __capsule_blas_daxpy_tan(*n, 0, *alpha, *dalpha, x, dx, *incx, 0, y, dy,
                           *incy, 0);
}

/*--- dscal_ ---------------------------------------------------------------*/

void *__capsule_blas_f_dscal_aug(const int *n, const int *dn,
                                 const double *alpha, double *dalpha, double *x,
                                 double *dx, const int *incx,
                                 const int *dincx) {
  void *inner = __capsule_blas_dscal_aug(*n, 0, *alpha, x, dx, *incx, 0);
  return keep_scalars(inner, 2, (int[]){*n, *incx}, *alpha, 0);
}

void __capsule_blas_f_dscal_grad(const int *n, const int *dn,
                                 const double *alpha, double *dalpha, double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 void *tape) {
  fortran_tape *t = tape;
  *dalpha += __capsule_blas_dscal_grad(t->arg[0], 0, t->alpha, x, dx, t->arg[1],
                                       0, t->inner);
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dscal_tan(const int *n, const int *dn,
                                const double *alpha, const double *dalpha,
                                double *x, double *dx, const int *incx,
                                const int *dincx) {
  __capsule_blas_dscal_tan(*n, 0, *alpha, *dalpha, x, dx, *incx, 0);
}

/*--- dnrm2_ ---------------------------------------------------------------*/

tape_and_double __capsule_blas_f_dnrm2_aug(const int *n, const int *dn,
                                           const double *x, double *dx,
                                           const int *incx, const int *dincx) {
  tape_and_double r = __capsule_blas_dnrm2_aug(*n, 0, x, dx, *incx, 0);
  r.tape = keep_scalars(r.tape, 2, (int[]){*n, *incx}, 0, 0);
  return r;
}

void __capsule_blas_f_dnrm2_grad(const int *n, const int *dn, const double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 double dr, void *tape) {
  fortran_tape *t = tape;
  __capsule_blas_dnrm2_grad(t->arg[0], 0, x, dx, t->arg[1], 0, dr, t->inner);
  __capsule_blas_scratch_free(t);
}

dual __capsule_blas_f_dnrm2_tan(const int *n, const int *dn, const double *x,
                                const double *dx, const int *incx,
                                const int *dincx) {
  return __capsule_blas_dnrm2_tan(*n, 0, x, dx, *incx, 0);
}

/*--- dcopy_ ---------------------------------------------------------------*/

void *__capsule_blas_f_dcopy_aug(const int *n, const int *dn, const double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 double *y, double *dy, const int *incy,
                                 const int *dincy) {
  __capsule_blas_dcopy_aug(*n, 0, x, dx, *incx, 0, y, dy, *incy, 0);
  return keep_scalars(0, 3, (int[]){*n, *incx, *incy}, 0, 0);
}

void __capsule_blas_f_dcopy_grad(const int *n, const int *dn, const double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 double *y, double *dy, const int *incy,
                                 const int *dincy, void *tape) {
  fortran_tape *t = tape;
  __capsule_blas_dcopy_grad(t->arg[0], 0, x, dx, t->arg[1], 0, y, dy, t->arg[2],
                            0);
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dcopy_tan(const int *n, const int *dn, const double *x,
                                const double *dx, const int *incx,
                                const int *dincx, double *y, double *dy,
                                const int *incy, const int *dincy) {
  __capsule_blas_dcopy_tan(*n, 0, x, dx, *incx, 0, y, dy, *incy, 0);
}

/*--- dswap_ ---------------------------------------------------------------*/

void *__capsule_blas_f_dswap_aug(const int *n, const int *dn, double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 double *y, double *dy, const int *incy,
                                 const int *dincy) {
  __capsule_blas_dswap_aug(*n, 0, x, dx, *incx, 0, y, dy, *incy, 0);
  return keep_scalars(0, 3, (int[]){*n, *incx, *incy}, 0, 0);
}

void __capsule_blas_f_dswap_grad(const int *n, const int *dn, double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 double *y, double *dy, const int *incy,
                                 const int *dincy, void *tape) {
  fortran_tape *t = tape;
  __capsule_blas_dswap_grad(t->arg[0], 0, x, dx, t->arg[1], 0, y, dy, t->arg[2],
                            0);
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dswap_tan(const int *n, const int *dn, double *x,
                                double *dx, const int *incx, const int *dincx,
                                double *y, double *dy, const int *incy,
                                const int *dincy) {
  __capsule_blas_dswap_tan(*n, 0, x, dx, *incx, 0, y, dy, *incy, 0);
}

/*--- dasum_ ---------------------------------------------------------------*/

tape_and_double __capsule_blas_f_dasum_aug(const int *n, const int *dn,
                                           const double *x, double *dx,
                                           const int *incx, const int *dincx) {
  tape_and_double r = __capsule_blas_dasum_aug(*n, 0, x, dx, *incx, 0);
  r.tape = keep_scalars(r.tape, 2, (int[]){*n, *incx}, 0, 0);
  return r;
}

void __capsule_blas_f_dasum_grad(const int *n, const int *dn, const double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 double dr, void *tape) {
  fortran_tape *t = tape;
  __capsule_blas_dasum_grad(t->arg[0], 0, x, dx, t->arg[1], 0, dr, t->inner);
  __capsule_blas_scratch_free(t);
}

dual __capsule_blas_f_dasum_tan(const int *n, const int *dn, const double *x,
                                const double *dx, const int *incx,
                                const int *dincx) {
  return __capsule_blas_dasum_tan(*n, 0, x, dx, *incx, 0);
}

/*--- drot_ ----------------------------------------------------------------*/

void *__capsule_blas_f_drot_aug(const int *n, const int *dn, double *x,
                                double *dx, const int *incx, const int *dincx,
                                double *y, double *dy, const int *incy,
                                const int *dincy, const double *c, double *dc,
                                const double *s, double *ds) {
  void *inner =
      __capsule_blas_drot_aug(*n, 0, x, dx, *incx, 0, y, dy, *incy, 0, *c, *s);
  return keep_scalars(inner, 3, (int[]){*n, *incx, *incy}, *c, *s);
}

void __capsule_blas_f_drot_grad(const int *n, const int *dn, double *x,
                                double *dx, const int *incx, const int *dincx,
                                double *y, double *dy, const int *incy,
                                const int *dincy, const double *c, double *dc,
                                const double *s, double *ds, void *tape) {
  fortran_tape *t = tape;
  two_adjoints g =
      __capsule_blas_drot_grad(t->arg[0], 0, x, dx, t->arg[1], 0, y, dy,
                               t->arg[2], 0, t->alpha, t->beta, t->inner);
  *dc += g.dalpha;
  *ds += g.dbeta;
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_drot_tan(const int *n, const int *dn, double *x,
                               double *dx, const int *incx, const int *dincx,
                               double *y, double *dy, const int *incy,
                               const int *dincy, const double *c,
                               const double *dc, const double *s,
                               const double *ds) {
  __capsule_blas_drot_tan(*n, 0, x, dx, *incx, 0, y, dy, *incy, 0, *c, *dc, *s,
                          *ds);
}

/*--- dgemv_ ---------------------------------------------------------------*/

void *__capsule_blas_f_dgemv_aug(const char *trans, const char *dtrans,
                                 const int *m, const int *dm, const int *n,
                                 const int *dn, const double *alpha,
                                 double *dalpha, const double *a, double *da,
                                 const int *lda, const int *dlda,
                                 const double *x, double *dx, const int *incx,
                                 const int *dincx, const double *beta,
                                 double *dbeta, double *y, double *dy,
                                 const int *incy, const int *dincy) {
  int args[] = {trans_of(trans), *m, *n, *lda, *incx, *incy};
  void *inner = __capsule_blas_dgemv_aug(ColMajor, 0, args[0], 0, *m, 0, *n, 0,
                                         *alpha, a, da, *lda, 0, x, dx, *incx,
                                         0, *beta, y, dy, *incy, 0);
  return keep_scalars(inner, 6, args, *alpha, *beta);
}

void __capsule_blas_f_dgemv_grad(
    const char *trans, const char *dtrans, const int *m, const int *dm,
    const int *n, const int *dn, const double *alpha, double *dalpha,
    const double *a, double *da, const int *lda, const int *dlda,
    const double *x, double *dx, const int *incx, const int *dincx,
    const double *beta, double *dbeta, double *y, double *dy, const int *incy,
    const int *dincy, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  two_adjoints g = __capsule_blas_dgemv_grad(
      ColMajor, 0, s[0], 0, s[1], 0, s[2], 0, t->alpha, a, da, s[3], 0, x, dx,
      s[4], 0, t->beta, y, dy, s[5], 0, t->inner);
  *dalpha += g.dalpha;
  *dbeta += g.dbeta;
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dgemv_tan(
    const char *trans, const char *dtrans, const int *m, const int *dm,
    const int *n, const int *dn, const double *alpha, const double *dalpha,
    const double *a, const double *da, const int *lda, const int *dlda,
    const double *x, const double *dx, const int *incx, const int *dincx,
    const double *beta, const double *dbeta, double *y, double *dy,
    const int *incy, const int *dincy) {
  __capsule_blas_dgemv_tan(ColMajor, 0, trans_of(trans), 0, *m, 0, *n, 0,
                           *alpha, *dalpha, a, da, *lda, 0, x, dx, *incx, 0,
                           *beta, *dbeta, y, dy, *incy, 0);
}

/*--- dger_ ----------------------------------------------------------------*/

void *__capsule_blas_f_dger_aug(const int *m, const int *dm, const int *n,
                                const int *dn, const double *alpha,
                                double *dalpha, const double *x, double *dx,
                                const int *incx, const int *dincx,
                                const double *y, double *dy, const int *incy,
                                const int *dincy, double *a, double *da,
                                const int *lda, const int *dlda) {
  void *inner =
      __capsule_blas_dger_aug(ColMajor, 0, *m, 0, *n, 0, *alpha, x, dx, *incx,
                              0, y, dy, *incy, 0, a, da, *lda, 0);
  return keep_scalars(inner, 5, (int[]){*m, *n, *incx, *incy, *lda}, *alpha, 0);
}

void __capsule_blas_f_dger_grad(const int *m, const int *dm, const int *n,
                                const int *dn, const double *alpha,
                                double *dalpha, const double *x, double *dx,
                                const int *incx, const int *dincx,
                                const double *y, double *dy, const int *incy,
                                const int *dincy, double *a, double *da,
                                const int *lda, const int *dlda, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  *dalpha += __capsule_blas_dger_grad(ColMajor, 0, s[0], 0, s[1], 0, t->alpha,
                                      x, dx, s[2], 0, y, dy, s[3], 0, a, da,
                                      s[4], 0, t->inner);
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dger_tan(const int *m, const int *dm, const int *n,
                               const int *dn, const double *alpha,
                               const double *dalpha, const double *x,
                               const double *dx, const int *incx,
                               const int *dincx, const double *y,
                               const double *dy, const int *incy,
                               const int *dincy, double *a, double *da,
                               const int *lda, const int *dlda) {
  __capsule_blas_dger_tan(ColMajor, 0, *m, 0, *n, 0, *alpha, *dalpha, x, dx,
                          *incx, 0, y, dy, *incy, 0, a, da, *lda, 0);
}

/*--- dgemm_ ---------------------------------------------------------------*/

void *__capsule_blas_f_dgemm_aug(const char *transa, const char *dtransa,
                                 const char *transb, const char *dtransb,
                                 const int *m, const int *dm, const int *n,
                                 const int *dn, const int *k, const int *dk,
                                 const double *alpha, double *dalpha,
                                 const double *a, double *da, const int *lda,
                                 const int *dlda, const double *b, double *db,
                                 const int *ldb, const int *dldb,
                                 const double *beta, double *dbeta, double *c,
                                 double *dc, const int *ldc, const int *dldc) {
  int args[] = {
      trans_of(transa), trans_of(transb), *m, *n, *k, *lda, *ldb, *ldc};
  void *inner = __capsule_blas_dgemm_aug(
      ColMajor, 0, args[0], 0, args[1], 0, *m, 0, *n, 0, *k, 0, *alpha, a, da,
      *lda, 0, b, db, *ldb, 0, *beta, c, dc, *ldc, 0);
  return keep_scalars(inner, 8, args, *alpha, *beta);
}

void __capsule_blas_f_dgemm_grad(
    const char *transa, const char *dtransa, const char *transb,
    const char *dtransb, const int *m, const int *dm, const int *n,
    const int *dn, const int *k, const int *dk, const double *alpha,
    double *dalpha, const double *a, double *da, const int *lda,
    const int *dlda, const double *b, double *db, const int *ldb,
    const int *dldb, const double *beta, double *dbeta, double *c, double *dc,
    const int *ldc, const int *dldc, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  two_adjoints g = __capsule_blas_dgemm_grad(
      ColMajor, 0, s[0], 0, s[1], 0, s[2], 0, s[3], 0, s[4], 0, t->alpha, a, da,
      s[5], 0, b, db, s[6], 0, t->beta, c, dc, s[7], 0, t->inner);
  *dalpha += g.dalpha;
  *dbeta += g.dbeta;
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dgemm_tan(
    const char *transa, const char *dtransa, const char *transb,
    const char *dtransb, const int *m, const int *dm, const int *n,
    const int *dn, const int *k, const int *dk, const double *alpha,
    const double *dalpha, const double *a, const double *da, const int *lda,
    const int *dlda, const double *b, const double *db, const int *ldb,
    const int *dldb, const double *beta, const double *dbeta, double *c,
    double *dc, const int *ldc, const int *dldc) {
  __capsule_blas_dgemm_tan(ColMajor, 0, trans_of(transa), 0, trans_of(transb),
                           0, *m, 0, *n, 0, *k, 0, *alpha, *dalpha, a, da, *lda,
                           0, b, db, *ldb, 0, *beta, *dbeta, c, dc, *ldc, 0);
}

/*--- dtrsv_ and dtrmv_ -----------------------------------------------------*/

/* The Fortran rules of a triangular routine on a vector, given the CBLAS
 * routine's rules. */
static void *triangular_vector_f_aug(triangular_vector_aug *aug,
                                     const char *uplo, const char *trans,
                                     const char *diag, const int *n,
                                     const double *a, double *da,
                                     const int *lda, double *x, double *dx,
                                     const int *incx) {
  int args[] = {uplo_of(uplo), trans_of(trans), diag_of(diag), *n, *lda, *incx};
  void *inner = aug(ColMajor, 0, args[0], 0, args[1], 0, args[2], 0, *n, 0, a,
                    da, *lda, 0, x, dx, *incx, 0);
  return keep_scalars(inner, 6, args, 0, 0);
}

static void triangular_vector_f_grad(triangular_vector_grad *grad,
                                     const double *a, double *da, double *x,
                                     double *dx, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  grad(ColMajor, 0, s[0], 0, s[1], 0, s[2], 0, s[3], 0, a, da, s[4], 0, x, dx,
       s[5], 0, t->inner);
  __capsule_blas_scratch_free(t);
}

static void triangular_vector_f_tan(triangular_vector_tan *tan,
                                    const char *uplo, const char *trans,
                                    const char *diag, const int *n,
                                    const double *a, const double *da,
                                    const int *lda, double *x, double *dx,
                                    const int *incx) {
  tan(ColMajor, 0, uplo_of(uplo), 0, trans_of(trans), 0, diag_of(diag), 0, *n,
      0, a, da, *lda, 0, x, dx, *incx, 0);
}

/* The rules of dtrsv_ (ROUTINE trsv) and dtrmv_ (trmv). */
#define TRIANGULAR_VECTOR_F_RULES(ROUTINE)                                     \
  void *__capsule_blas_f_d##ROUTINE##_aug(                                     \
      const char *uplo, const char *duplo, const char *trans,                  \
      const char *dtrans, const char *diag, const char *ddiag, const int *n,   \
      const int *dn, const double *a, double *da, const int *lda,              \
      const int *dlda, double *x, double *dx, const int *incx,                 \
      const int *dincx) {                                                      \
    return triangular_vector_f_aug(__capsule_blas_d##ROUTINE##_aug, uplo,      \
                                   trans, diag, n, a, da, lda, x, dx, incx);   \
  }                                                                            \
  void __capsule_blas_f_d##ROUTINE##_grad(                                     \
      const char *uplo, const char *duplo, const char *trans,                  \
      const char *dtrans, const char *diag, const char *ddiag, const int *n,   \
      const int *dn, const double *a, double *da, const int *lda,              \
      const int *dlda, double *x, double *dx, const int *incx,                 \
      const int *dincx, void *tape) {                                          \
    triangular_vector_f_grad(__capsule_blas_d##ROUTINE##_grad, a, da, x, dx,   \
                             tape);                                            \
  }                                                                            \
  void __capsule_blas_f_d##ROUTINE##_tan(                                      \
      const char *uplo, const char *duplo, const char *trans,                  \
      const char *dtrans, const char *diag, const char *ddiag, const int *n,   \
      const int *dn, const double *a, const double *da, const int *lda,        \
      const int *dlda, double *x, double *dx, const int *incx,                 \
      const int *dincx) {                                                      \
    triangular_vector_f_tan(__capsule_blas_d##ROUTINE##_tan, uplo, trans,      \
                            diag, n, a, da, lda, x, dx, incx);                 \
  }

TRIANGULAR_VECTOR_F_RULES(trsv)
TRIANGULAR_VECTOR_F_RULES(trmv)

/*--- dtpsv_ and dtpmv_ -----------------------------------------------------*/

static void *packed_triangular_f_aug(packed_triangular_aug *aug,
                                     const char *uplo, const char *trans,
                                     const char *diag, const int *n,
                                     const double *ap, double *dap, double *x,
                                     double *dx, const int *incx) {
  int args[] = {uplo_of(uplo), trans_of(trans), diag_of(diag), *n, *incx};
  void *inner = aug(ColMajor, 0, args[0], 0, args[1], 0, args[2], 0, *n, 0, ap,
                    dap, x, dx, *incx, 0);
  return keep_scalars(inner, 5, args, 0, 0);
}

static void packed_triangular_f_grad(packed_triangular_grad *grad,
                                     const double *ap, double *dap, double *x,
                                     double *dx, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  grad(ColMajor, 0, s[0], 0, s[1], 0, s[2], 0, s[3], 0, ap, dap, x, dx, s[4], 0,
       t->inner);
  __capsule_blas_scratch_free(t);
}

/* The rules of dtpsv_ (ROUTINE tpsv) and dtpmv_ (tpmv). */
#define PACKED_TRIANGULAR_F_RULES(ROUTINE)                                     \
  void *__capsule_blas_f_d##ROUTINE##_aug(                                     \
      const char *uplo, const char *duplo, const char *trans,                  \
      const char *dtrans, const char *diag, const char *ddiag, const int *n,   \
      const int *dn, const double *ap, double *dap, double *x, double *dx,     \
      const int *incx, const int *dincx) {                                     \
    return packed_triangular_f_aug(__capsule_blas_d##ROUTINE##_aug, uplo,      \
                                   trans, diag, n, ap, dap, x, dx, incx);      \
  }                                                                            \
  void __capsule_blas_f_d##ROUTINE##_grad(                                     \
      const char *uplo, const char *duplo, const char *trans,                  \
      const char *dtrans, const char *diag, const char *ddiag, const int *n,   \
      const int *dn, const double *ap, double *dap, double *x, double *dx,     \
      const int *incx, const int *dincx, void *tape) {                         \
    packed_triangular_f_grad(__capsule_blas_d##ROUTINE##_grad, ap, dap, x, dx, \
                             tape);                                            \
  }                                                                            \
  void __capsule_blas_f_d##ROUTINE##_tan(                                      \
      const char *uplo, const char *duplo, const char *trans,                  \
      const char *dtrans, const char *diag, const char *ddiag, const int *n,   \
      const int *dn, const double *ap, const double *dap, double *x,           \
      double *dx, const int *incx, const int *dincx) {                         \
    __capsule_blas_d##ROUTINE##_tan(ColMajor, 0, uplo_of(uplo), 0,             \
                                    trans_of(trans), 0, diag_of(diag), 0, *n,  \
                                    0, ap, dap, x, dx, *incx, 0);              \
  }

PACKED_TRIANGULAR_F_RULES(tpsv)
PACKED_TRIANGULAR_F_RULES(tpmv)

/*--- dtrsm_ and dtrmm_ -----------------------------------------------------*/

/* The Fortran rules of a triangular routine on a matrix, given the CBLAS
 * routine's rules. */
static void *triangular_matrix_f_aug(triangular_matrix_aug *aug,
                                     const char *side, const char *uplo,
                                     const char *transa, const char *diag,
                                     const int *m, const int *n,
                                     const double *alpha, const double *a,
                                     double *da, const int *lda, double *b,
                                     double *db, const int *ldb) {
  int args[] = {
      side_of(side), uplo_of(uplo), trans_of(transa), diag_of(diag), *m, *n,
      *lda,          *ldb};
  void *inner = aug(ColMajor, 0, args[0], 0, args[1], 0, args[2], 0, args[3], 0,
                    *m, 0, *n, 0, *alpha, a, da, *lda, 0, b, db, *ldb, 0);
  return keep_scalars(inner, 8, args, *alpha, 0);
}

static void triangular_matrix_f_grad(triangular_matrix_grad *grad,
                                     double *dalpha, const double *a,
                                     double *da, double *b, double *db,
                                     void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  *dalpha += grad(ColMajor, 0, s[0], 0, s[1], 0, s[2], 0, s[3], 0, s[4], 0,
                  s[5], 0, t->alpha, a, da, s[6], 0, b, db, s[7], 0, t->inner);
  __capsule_blas_scratch_free(t);
}

static void
triangular_matrix_f_tan(triangular_matrix_tan *tan, const char *side,
                        const char *uplo, const char *transa, const char *diag,
                        const int *m, const int *n, const double *alpha,
                        const double *dalpha, const double *a, const double *da,
                        const int *lda, double *b, double *db, const int *ldb) {
  tan(ColMajor, 0, side_of(side), 0, uplo_of(uplo), 0, trans_of(transa), 0,
      diag_of(diag), 0, *m, 0, *n, 0, *alpha, *dalpha, a, da, *lda, 0, b, db,
      *ldb, 0);
}

/* The rules of dtrsm_ (ROUTINE trsm) and dtrmm_ (trmm). */
#define TRIANGULAR_MATRIX_F_RULES(ROUTINE)                                     \
  void *__capsule_blas_f_d##ROUTINE##_aug(                                     \
      const char *side, const char *dside, const char *uplo,                   \
      const char *duplo, const char *transa, const char *dtransa,              \
      const char *diag, const char *ddiag, const int *m, const int *dm,        \
      const int *n, const int *dn, const double *alpha, double *dalpha,        \
      const double *a, double *da, const int *lda, const int *dlda, double *b, \
      double *db, const int *ldb, const int *dldb) {                           \
    return triangular_matrix_f_aug(__capsule_blas_d##ROUTINE##_aug, side,      \
                                   uplo, transa, diag, m, n, alpha, a, da,     \
                                   lda, b, db, ldb);                           \
  }                                                                            \
  void __capsule_blas_f_d##ROUTINE##_grad(                                     \
      const char *side, const char *dside, const char *uplo,                   \
      const char *duplo, const char *transa, const char *dtransa,              \
      const char *diag, const char *ddiag, const int *m, const int *dm,        \
      const int *n, const int *dn, const double *alpha, double *dalpha,        \
      const double *a, double *da, const int *lda, const int *dlda, double *b, \
      double *db, const int *ldb, const int *dldb, void *tape) {               \
    triangular_matrix_f_grad(__capsule_blas_d##ROUTINE##_grad, dalpha, a, da,  \
                             b, db, tape);                                     \
  }                                                                            \
  void __capsule_blas_f_d##ROUTINE##_tan(                                      \
      const char *side, const char *dside, const char *uplo,                   \
      const char *duplo, const char *transa, const char *dtransa,              \
      const char *diag, const char *ddiag, const int *m, const int *dm,        \
      const int *n, const int *dn, const double *alpha, const double *dalpha,  \
      const double *a, const double *da, const int *lda, const int *dlda,      \
      double *b, double *db, const int *ldb, const int *dldb) {                \
    triangular_matrix_f_tan(__capsule_blas_d##ROUTINE##_tan, side, uplo,       \
                            transa, diag, m, n, alpha, dalpha, a, da, lda, b,  \
                            db, ldb);                                          \
  }

TRIANGULAR_MATRIX_F_RULES(trsm)
TRIANGULAR_MATRIX_F_RULES(trmm)

/*--- dsymv_ ---------------------------------------------------------------*/

void *__capsule_blas_f_dsymv_aug(
    const char *uplo, const char *duplo, const int *n, const int *dn,
    const double *alpha, double *dalpha, const double *a, double *da,
    const int *lda, const int *dlda, const double *x, double *dx,
    const int *incx, const int *dincx, const double *beta, double *dbeta,
    double *y, double *dy, const int *incy, const int *dincy) {
  int args[] = {uplo_of(uplo), *n, *lda, *incx, *incy};
  void *inner = __capsule_blas_dsymv_aug(ColMajor, 0, args[0], 0, *n, 0, *alpha,
                                         a, da, *lda, 0, x, dx, *incx, 0, *beta,
                                         y, dy, *incy, 0);
  return keep_scalars(inner, 5, args, *alpha, *beta);
}

void __capsule_blas_f_dsymv_grad(
    const char *uplo, const char *duplo, const int *n, const int *dn,
    const double *alpha, double *dalpha, const double *a, double *da,
    const int *lda, const int *dlda, const double *x, double *dx,
    const int *incx, const int *dincx, const double *beta, double *dbeta,
    double *y, double *dy, const int *incy, const int *dincy, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  two_adjoints g = __capsule_blas_dsymv_grad(
      ColMajor, 0, s[0], 0, s[1], 0, t->alpha, a, da, s[2], 0, x, dx, s[3], 0,
      t->beta, y, dy, s[4], 0, t->inner);
  *dalpha += g.dalpha;
  *dbeta += g.dbeta;
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dsymv_tan(
    const char *uplo, const char *duplo, const int *n, const int *dn,
    const double *alpha, const double *dalpha, const double *a,
    const double *da, const int *lda, const int *dlda, const double *x,
    const double *dx, const int *incx, const int *dincx, const double *beta,
    const double *dbeta, double *y, double *dy, const int *incy,
    const int *dincy) {
  __capsule_blas_dsymv_tan(ColMajor, 0, uplo_of(uplo), 0, *n, 0, *alpha,
                           *dalpha, a, da, *lda, 0, x, dx, *incx, 0, *beta,
                           *dbeta, y, dy, *incy, 0);
}

/*--- dspmv_ ---------------------------------------------------------------*/

void *__capsule_blas_f_dspmv_aug(const char *uplo, const char *duplo,
                                 const int *n, const int *dn,
                                 const double *alpha, double *dalpha,
                                 const double *ap, double *dap, const double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 const double *beta, double *dbeta, double *y,
                                 double *dy, const int *incy,
                                 const int *dincy) {
  int args[] = {uplo_of(uplo), *n, *incx, *incy};
  void *inner =
      __capsule_blas_dspmv_aug(ColMajor, 0, args[0], 0, *n, 0, *alpha, ap, dap,
                               x, dx, *incx, 0, *beta, y, dy, *incy, 0);
  return keep_scalars(inner, 4, args, *alpha, *beta);
}

void __capsule_blas_f_dspmv_grad(const char *uplo, const char *duplo,
                                 const int *n, const int *dn,
                                 const double *alpha, double *dalpha,
                                 const double *ap, double *dap, const double *x,
                                 double *dx, const int *incx, const int *dincx,
                                 const double *beta, double *dbeta, double *y,
                                 double *dy, const int *incy, const int *dincy,
                                 void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  two_adjoints g = __capsule_blas_dspmv_grad(ColMajor, 0, s[0], 0, s[1], 0,
                                             t->alpha, ap, dap, x, dx, s[2], 0,
                                             t->beta, y, dy, s[3], 0, t->inner);
  *dalpha += g.dalpha;
  *dbeta += g.dbeta;
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dspmv_tan(
    const char *uplo, const char *duplo, const int *n, const int *dn,
    const double *alpha, const double *dalpha, const double *ap,
    const double *dap, const double *x, const double *dx, const int *incx,
    const int *dincx, const double *beta, const double *dbeta, double *y,
    double *dy, const int *incy, const int *dincy) {
  __capsule_blas_dspmv_tan(ColMajor, 0, uplo_of(uplo), 0, *n, 0, *alpha,
                           *dalpha, ap, dap, x, dx, *incx, 0, *beta, *dbeta, y,
                           dy, *incy, 0);
}

/*--- dsyr_ ----------------------------------------------------------------*/

void *__capsule_blas_f_dsyr_aug(const char *uplo, const char *duplo,
                                const int *n, const int *dn,
                                const double *alpha, double *dalpha,
                                const double *x, double *dx, const int *incx,
                                const int *dincx, double *a, double *da,
                                const int *lda, const int *dlda) {
  int args[] = {uplo_of(uplo), *n, *incx, *lda};
  void *inner = __capsule_blas_dsyr_aug(ColMajor, 0, args[0], 0, *n, 0, *alpha,
                                        x, dx, *incx, 0, a, da, *lda, 0);
  return keep_scalars(inner, 4, args, *alpha, 0);
}

void __capsule_blas_f_dsyr_grad(const char *uplo, const char *duplo,
                                const int *n, const int *dn,
                                const double *alpha, double *dalpha,
                                const double *x, double *dx, const int *incx,
                                const int *dincx, double *a, double *da,
                                const int *lda, const int *dlda, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  *dalpha += __capsule_blas_dsyr_grad(ColMajor, 0, s[0], 0, s[1], 0, t->alpha,
                                      x, dx, s[2], 0, a, da, s[3], 0, t->inner);
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dsyr_tan(const char *uplo, const char *duplo,
                               const int *n, const int *dn, const double *alpha,
                               const double *dalpha, const double *x,
                               const double *dx, const int *incx,
                               const int *dincx, double *a, double *da,
                               const int *lda, const int *dlda) {
  __capsule_blas_dsyr_tan(ColMajor, 0, uplo_of(uplo), 0, *n, 0, *alpha, *dalpha,
                          x, dx, *incx, 0, a, da, *lda, 0);
}

/*--- dspr_ ----------------------------------------------------------------*/

void *__capsule_blas_f_dspr_aug(const char *uplo, const char *duplo,
                                const int *n, const int *dn,
                                const double *alpha, double *dalpha,
                                const double *x, double *dx, const int *incx,
                                const int *dincx, double *ap, double *dap) {
  int args[] = {uplo_of(uplo), *n, *incx};
  void *inner = __capsule_blas_dspr_aug(ColMajor, 0, args[0], 0, *n, 0, *alpha,
                                        x, dx, *incx, 0, ap, dap);
  return keep_scalars(inner, 3, args, *alpha, 0);
}

void __capsule_blas_f_dspr_grad(const char *uplo, const char *duplo,
                                const int *n, const int *dn,
                                const double *alpha, double *dalpha,
                                const double *x, double *dx, const int *incx,
                                const int *dincx, double *ap, double *dap,
                                void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  *dalpha += __capsule_blas_dspr_grad(ColMajor, 0, s[0], 0, s[1], 0, t->alpha,
                                      x, dx, s[2], 0, ap, dap, t->inner);
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dspr_tan(const char *uplo, const char *duplo,
                               const int *n, const int *dn, const double *alpha,
                               const double *dalpha, const double *x,
                               const double *dx, const int *incx,
                               const int *dincx, double *ap, double *dap) {
  __capsule_blas_dspr_tan(ColMajor, 0, uplo_of(uplo), 0, *n, 0, *alpha, *dalpha,
                          x, dx, *incx, 0, ap, dap);
}

/*--- dsyrk_ ---------------------------------------------------------------*/

void *__capsule_blas_f_dsyrk_aug(const char *uplo, const char *duplo,
                                 const char *trans, const char *dtrans,
                                 const int *n, const int *dn, const int *k,
                                 const int *dk, const double *alpha,
                                 double *dalpha, const double *a, double *da,
                                 const int *lda, const int *dlda,
                                 const double *beta, double *dbeta, double *c,
                                 double *dc, const int *ldc, const int *dldc) {
  int args[] = {uplo_of(uplo), trans_of(trans), *n, *k, *lda, *ldc};
  void *inner = __capsule_blas_dsyrk_aug(ColMajor, 0, args[0], 0, args[1], 0,
                                         *n, 0, *k, 0, *alpha, a, da, *lda, 0,
                                         *beta, c, dc, *ldc, 0);
  return keep_scalars(inner, 6, args, *alpha, *beta);
}

void __capsule_blas_f_dsyrk_grad(
    const char *uplo, const char *duplo, const char *trans, const char *dtrans,
    const int *n, const int *dn, const int *k, const int *dk,
    const double *alpha, double *dalpha, const double *a, double *da,
    const int *lda, const int *dlda, const double *beta, double *dbeta,
    double *c, double *dc, const int *ldc, const int *dldc, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  two_adjoints g = __capsule_blas_dsyrk_grad(
      ColMajor, 0, s[0], 0, s[1], 0, s[2], 0, s[3], 0, t->alpha, a, da, s[4], 0,
      t->beta, c, dc, s[5], 0, t->inner);
  *dalpha += g.dalpha;
  *dbeta += g.dbeta;
  __capsule_blas_scratch_free(t);
}

void __capsule_blas_f_dsyrk_tan(const char *uplo, const char *duplo,
                                const char *trans, const char *dtrans,
                                const int *n, const int *dn, const int *k,
                                const int *dk, const double *alpha,
                                const double *dalpha, const double *a,
                                const double *da, const int *lda,
                                const int *dlda, const double *beta,
                                const double *dbeta, double *c, double *dc,
                                const int *ldc, const int *dldc) {
  __capsule_blas_dsyrk_tan(ColMajor, 0, uplo_of(uplo), 0, trans_of(trans), 0,
                           *n, 0, *k, 0, *alpha, *dalpha, a, da, *lda, 0, *beta,
                           *dbeta, c, dc, *ldc, 0);
}

/*--- dsymm_ and dsyr2k_ ----------------------------------------------------*/

/* The Fortran rules of dsymm_ and dsyr2k_, given the CBLAS routine's rules
 * and the call's options (as CBLAS enumerations, in CBLAS's order) and
 * sizes. */
static void *operand_pair_f_aug(operand_pair_aug *aug, int option1, int option2,
                                const int *size1, const int *size2,
                                const double *alpha, const double *a,
                                double *da, const int *lda, const double *b,
                                double *db, const int *ldb, const double *beta,
                                double *c, double *dc, const int *ldc) {
  int args[] = {option1, option2, *size1, *size2, *lda, *ldb, *ldc};
  void *inner =
      aug(ColMajor, 0, option1, 0, option2, 0, *size1, 0, *size2, 0, *alpha, a,
          da, *lda, 0, b, db, *ldb, 0, *beta, c, dc, *ldc, 0);
  return keep_scalars(inner, 7, args, *alpha, *beta);
}

static void operand_pair_f_grad(operand_pair_grad *grad, double *dalpha,
                                const double *a, double *da, const double *b,
                                double *db, double *dbeta, double *c,
                                double *dc, void *tape) {
  fortran_tape *t = tape;
  const int *s = t->arg;
  two_adjoints g =
      grad(ColMajor, 0, s[0], 0, s[1], 0, s[2], 0, s[3], 0, t->alpha, a, da,
           s[4], 0, b, db, s[5], 0, t->beta, c, dc, s[6], 0, t->inner);
  *dalpha += g.dalpha;
  *dbeta += g.dbeta;
  __capsule_blas_scratch_free(t);
}

static void operand_pair_f_tan(operand_pair_tan *tan, int option1, int option2,
                               const int *size1, const int *size2,
                               const double *alpha, const double *dalpha,
                               const double *a, const double *da,
                               const int *lda, const double *b,
                               const double *db, const int *ldb,
                               const double *beta, const double *dbeta,
                               double *c, double *dc, const int *ldc) {
  tan(ColMajor, 0, option1, 0, option2, 0, *size1, 0, *size2, 0, *alpha,
      *dalpha, a, da, *lda, 0, b, db, *ldb, 0, *beta, *dbeta, c, dc, *ldc, 0);
}

void *__capsule_blas_f_dsymm_aug(
    const char *side, const char *dside, const char *uplo, const char *duplo,
    const int *m, const int *dm, const int *n, const int *dn,
    const double *alpha, double *dalpha, const double *a, double *da,
    const int *lda, const int *dlda, const double *b, double *db,
    const int *ldb, const int *dldb, const double *beta, double *dbeta,
    double *c, double *dc, const int *ldc, const int *dldc) {
  return operand_pair_f_aug(__capsule_blas_dsymm_aug, side_of(side),
                            uplo_of(uplo), m, n, alpha, a, da, lda, b, db, ldb,
                            beta, c, dc, ldc);
}

void __capsule_blas_f_dsymm_grad(
    const char *side, const char *dside, const char *uplo, const char *duplo,
    const int *m, const int *dm, const int *n, const int *dn,
    const double *alpha, double *dalpha, const double *a, double *da,
    const int *lda, const int *dlda, const double *b, double *db,
    const int *ldb, const int *dldb, const double *beta, double *dbeta,
    double *c, double *dc, const int *ldc, const int *dldc, void *tape) {
  operand_pair_f_grad(__capsule_blas_dsymm_grad, dalpha, a, da, b, db, dbeta, c,
                      dc, tape);
}

void __capsule_blas_f_dsymm_tan(
    const char *side, const char *dside, const char *uplo, const char *duplo,
    const int *m, const int *dm, const int *n, const int *dn,
    const double *alpha, const double *dalpha, const double *a,
    const double *da, const int *lda, const int *dlda, const double *b,
    const double *db, const int *ldb, const int *dldb, const double *beta,
    const double *dbeta, double *c, double *dc, const int *ldc,
    const int *dldc) {
  operand_pair_f_tan(__capsule_blas_dsymm_tan, side_of(side), uplo_of(uplo), m,
                     n, alpha, dalpha, a, da, lda, b, db, ldb, beta, dbeta, c,
                     dc, ldc);
}

void *__capsule_blas_f_dsyr2k_aug(
    const char *uplo, const char *duplo, const char *trans, const char *dtrans,
    const int *n, const int *dn, const int *k, const int *dk,
    const double *alpha, double *dalpha, const double *a, double *da,
    const int *lda, const int *dlda, const double *b, double *db,
    const int *ldb, const int *dldb, const double *beta, double *dbeta,
    double *c, double *dc, const int *ldc, const int *dldc) {
  return operand_pair_f_aug(__capsule_blas_dsyr2k_aug, uplo_of(uplo),
                            trans_of(trans), n, k, alpha, a, da, lda, b, db,
                            ldb, beta, c, dc, ldc);
}

void __capsule_blas_f_dsyr2k_grad(
    const char *uplo, const char *duplo, const char *trans, const char *dtrans,
    const int *n, const int *dn, const int *k, const int *dk,
    const double *alpha, double *dalpha, const double *a, double *da,
    const int *lda, const int *dlda, const double *b, double *db,
    const int *ldb, const int *dldb, const double *beta, double *dbeta,
    double *c, double *dc, const int *ldc, const int *dldc, void *tape) {
  operand_pair_f_grad(__capsule_blas_dsyr2k_grad, dalpha, a, da, b, db, dbeta,
                      c, dc, tape);
}

void __capsule_blas_f_dsyr2k_tan(
    const char *uplo, const char *duplo, const char *trans, const char *dtrans,
    const int *n, const int *dn, const int *k, const int *dk,
    const double *alpha, const double *dalpha, const double *a,
    const double *da, const int *lda, const int *dlda, const double *b,
    const double *db, const int *ldb, const int *dldb, const double *beta,
    const double *dbeta, double *c, double *dc, const int *ldc,
    const int *dldc) {
  operand_pair_f_tan(__capsule_blas_dsyr2k_tan, uplo_of(uplo), trans_of(trans),
                     n, k, alpha, dalpha, a, da, lda, b, db, ldb, beta, dbeta,
                     c, dc, ldc);
}
