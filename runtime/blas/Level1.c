/*===- Level1.c - Rules of the level-1 BLAS routines ---------------------===*
 *
 * ddot, daxpy, dscal, dnrm2, dcopy, dswap, dasum and drot (Blas.h has the
 * convention).
 *===----------------------------------------------------------------------===*/
#include "CblasRules.h"

/*--- ddot: x . y ---------------------------------------------------------*/

tape_and_double __capsule_blas_ddot_aug(int n, int dn, const double *x,
                                        double *dx, int incx, int dincx,
                                        const double *y, double *dy, int incy,
                                        int dincy) {
  double *tape =
      __capsule_blas_scratch_alloc(sizeof(double) * 2 * (n > 0 ? n : 1));
  if (n > 0) {
    cblas_dcopy(n, x, incx, tape, 1);
    cblas_dcopy(n, y, incy, tape + n, 1);
  }
  tape_and_double r = {tape, cblas_ddot(n, x, incx, y, incy)};
  return r;
}

void __capsule_blas_ddot_grad(int n, int dn, const double *x, double *dx,
                              int incx, int dincx, const double *y, double *dy,
                              int incy, int dincy, double dr, void *tape) {
  double *t = tape;
  if (n > 0) {
    cblas_daxpy(n, dr, t + n, 1, dx, incx);
    cblas_daxpy(n, dr, t, 1, dy, incy);
  }
  __capsule_blas_scratch_free(tape);
}

dual __capsule_blas_ddot_tan(int n, int dn, const double *x, const double *dx,
                             int incx, int dincx, const double *y,
                             const double *dy, int incy, int dincy) {
  dual r = {cblas_ddot(n, x, incx, y, incy),
            cblas_ddot(n, dx, incx, y, incy) +
                cblas_ddot(n, x, incx, dy, incy)};
  return r;
}

/*--- daxpy: y += alpha x --------------------------------------------------*/

void *__capsule_blas_daxpy_aug(int n, int dn, double alpha, const double *x,
                               double *dx, int incx, int dincx, double *y,
                               double *dy, int incy, int dincy) {
  double *tape = __capsule_blas_vector_copy(n, x, incx);
  cblas_daxpy(n, alpha, x, incx, y, incy);
  return tape;
}

double __capsule_blas_daxpy_grad(int n, int dn, double alpha, const double *x,
                                 double *dx, int incx, int dincx, double *y,
                                 double *dy, int incy, int dincy, void *tape) {
  double dalpha = n > 0 ? cblas_ddot(n, dy, incy, tape, 1) : 0;
  if (n > 0)
    cblas_daxpy(n, alpha, dy, incy, dx, incx);
  __capsule_blas_scratch_free(tape);
  return dalpha;
}

void __capsule_blas_daxpy_tan(int n, int dn, double alpha, double dalpha,
                              const double *x, const double *dx, int incx,
                              int dincx, double *y, double *dy, int incy,
                              int dincy) {
  cblas_daxpy(n, dalpha, x, incx, dy, incy);
  cblas_daxpy(n, alpha, dx, incx, dy, incy);
  cblas_daxpy(n, alpha, x, incx, y, incy);
}

/*--- dscal: x *= alpha ----------------------------------------------------*/

/* dscal and dnrm2 do nothing with a stride that is not positive (the
 * reference BLAS and OpenBLAS return at once, where the other routines run
 * a negative stride backwards): their rules see no elements then. */
static int positive_stride_length(int n, int inc) { return inc > 0 ? n : 0; }

void *__capsule_blas_dscal_aug(int n, int dn, double alpha, double *x,
                               double *dx, int incx, int dincx) {
  n = positive_stride_length(n, incx);
  double *tape = __capsule_blas_vector_copy(n, x, incx);
  cblas_dscal(n, alpha, x, incx);
  return tape;
}

double __capsule_blas_dscal_grad(int n, int dn, double alpha, double *x,
                                 double *dx, int incx, int dincx, void *tape) {
  n = positive_stride_length(n, incx);
  double dalpha = n > 0 ? cblas_ddot(n, dx, incx, tape, 1) : 0;
  scale_vector(n, alpha, dx, incx);
  __capsule_blas_scratch_free(tape);
  return dalpha;
}

void __capsule_blas_dscal_tan(int n, int dn, double alpha, double dalpha,
                              double *x, double *dx, int incx, int dincx) {
  n = positive_stride_length(n, incx);
  scale_vector(n, alpha, dx, incx);
  cblas_daxpy(n, dalpha, x, incx, dx, incx);
  cblas_dscal(n, alpha, x, incx);
}

/* The augmented rule of a reduction of x: a copy of x for the gradient,
 * and the result. */
static tape_and_double copy_and_reduce(int n, const double *x, int incx,
                                       double (*reduce)(int, const double *,
                                                        int)) {
  n = positive_stride_length(n, incx);
  tape_and_double r = {__capsule_blas_vector_copy(n, x, incx),
                       reduce(n, x, incx)};
  return r;
}

/*--- dnrm2: |x| -----------------------------------------------------------*/

tape_and_double __capsule_blas_dnrm2_aug(int n, int dn, const double *x,
                                         double *dx, int incx, int dincx) {
  return copy_and_reduce(n, x, incx, cblas_dnrm2);
}

/* The derivative x / |x|; at x = 0 (not differentiable) it is taken as 0. */
void __capsule_blas_dnrm2_grad(int n, int dn, const double *x, double *dx,
                               int incx, int dincx, double dr, void *tape) {
  n = positive_stride_length(n, incx);
  double norm = n > 0 ? cblas_dnrm2(n, tape, 1) : 0;
  if (norm > 0)
    cblas_daxpy(n, dr / norm, tape, 1, dx, incx);
  __capsule_blas_scratch_free(tape);
}

dual __capsule_blas_dnrm2_tan(int n, int dn, const double *x, const double *dx,
                              int incx, int dincx) {
  n = positive_stride_length(n, incx);
  double norm = cblas_dnrm2(n, x, incx);
  dual r = {norm, norm > 0 ? cblas_ddot(n, x, incx, dx, incx) / norm : 0};
  return r;
}

/*--- dcopy: y = x ---------------------------------------------------------*/

void __capsule_blas_dcopy_aug(int n, int dn, const double *x, double *dx,
                              int incx, int dincx, double *y, double *dy,
                              int incy, int dincy) {
  cblas_dcopy(n, x, incx, y, incy);
}

void __capsule_blas_dcopy_grad(int n, int dn, const double *x, double *dx,
                               int incx, int dincx, double *y, double *dy,
                               int incy, int dincy) {
  if (n > 0)
    cblas_daxpy(n, 1.0, dy, incy, dx, incx);
  for (int i = 0; i < n; ++i)
    *element(dy, n, incy, i) = 0;
}

void __capsule_blas_dcopy_tan(int n, int dn, const double *x, const double *dx,
                              int incx, int dincx, double *y, double *dy,
                              int incy, int dincy) {
  cblas_dcopy(n, x, incx, y, incy);
  cblas_dcopy(n, dx, incx, dy, incy);
}

/*--- dswap: x <-> y -------------------------------------------------------*/

/* Whatever reached x's place before the swap came from y's, and the other
 * way round: the adjoints are swapped back, as are the tangents forward. */
void __capsule_blas_dswap_aug(int n, int dn, double *x, double *dx, int incx,
                              int dincx, double *y, double *dy, int incy,
                              int dincy) {
  cblas_dswap(n, x, incx, y, incy);
}

void __capsule_blas_dswap_grad(int n, int dn, double *x, double *dx, int incx,
                               int dincx, double *y, double *dy, int incy,
                               int dincy) {
  cblas_dswap(n, dx, incx, dy, incy);
}

void __capsule_blas_dswap_tan(int n, int dn, double *x, double *dx, int incx,
                              int dincx, double *y, double *dy, int incy,
                              int dincy) {
  cblas_dswap(n, x, incx, y, incy);
  cblas_dswap(n, dx, incx, dy, incy);
}

/*--- dasum: sum of |x_i| --------------------------------------------------*/

/* The derivative of |x_i| is taken as 1 at 0, as fabs's is. */
static double sign_of(double v) { return v < 0 ? -1 : 1; }

tape_and_double __capsule_blas_dasum_aug(int n, int dn, const double *x,
                                         double *dx, int incx, int dincx) {
  return copy_and_reduce(n, x, incx, cblas_dasum);
}

void __capsule_blas_dasum_grad(int n, int dn, const double *x, double *dx,
                               int incx, int dincx, double dr, void *tape) {
  n = positive_stride_length(n, incx);
  const double *t = tape;
  for (int i = 0; i < n; ++i)
    *element(dx, n, incx, i) += dr * sign_of(t[i]);
  __capsule_blas_scratch_free(tape);
}

dual __capsule_blas_dasum_tan(int n, int dn, const double *x, const double *dx,
                              int incx, int dincx) {
  n = positive_stride_length(n, incx);
  double tangent = 0;
  for (int i = 0; i < n; ++i)
    tangent += sign_of(*element((double *)x, n, incx, i)) *
               *element((double *)dx, n, incx, i);
  dual r = {cblas_dasum(n, x, incx), tangent};
  return r;
}

/*--- drot: (x, y) <- (c x + s y, c y - s x) -------------------------------*/

void *__capsule_blas_drot_aug(int n, int dn, double *x, double *dx, int incx,
                              int dincx, double *y, double *dy, int incy,
                              int dincy, double c, double s) {
  double *tape =
      __capsule_blas_scratch_alloc(sizeof(double) * 2 * (n > 0 ? n : 1));
  if (n > 0) {
    cblas_dcopy(n, x, incx, tape, 1);
    cblas_dcopy(n, y, incy, tape + n, 1);
  }
  cblas_drot(n, x, incx, y, incy, c, s);
  return tape;
}

/* With gx, gy the adjoints of the new x and y: those of the old ones are
 * the rotation by -s, c gx - s gy and s gx + c gy; dc = x.gx + y.gy and
 * ds = y.gx - x.gy with the old x and y. */
two_adjoints __capsule_blas_drot_grad(int n, int dn, double *x, double *dx,
                                      int incx, int dincx, double *y,
                                      double *dy, int incy, int dincy, double c,
                                      double s, void *tape) {
  const double *ox = tape, *oy = (const double *)tape + n;
  two_adjoints r = {0, 0};
  if (n > 0) {
    r.dalpha = cblas_ddot(n, ox, 1, dx, incx) + cblas_ddot(n, oy, 1, dy, incy);
    r.dbeta = cblas_ddot(n, oy, 1, dx, incx) - cblas_ddot(n, ox, 1, dy, incy);
    cblas_drot(n, dx, incx, dy, incy, c, -s);
  }
  __capsule_blas_scratch_free(tape);
  return r;
}

void __capsule_blas_drot_tan(int n, int dn, double *x, double *dx, int incx,
                             int dincx, double *y, double *dy, int incy,
                             int dincy, double c, double dc, double s,
                             double ds) {
  cblas_drot(n, dx, incx, dy, incy, c, s);
  cblas_daxpy(n, dc, x, incx, dx, incx);
  cblas_daxpy(n, ds, y, incy, dx, incx);
  cblas_daxpy(n, dc, y, incy, dy, incy);
  cblas_daxpy(n, -ds, x, incx, dy, incy);
  cblas_drot(n, x, incx, y, incy, c, s);
}
