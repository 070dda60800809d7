/*===- Level2.c - Rules of the level-2 BLAS routines ---------------------===*
 *
 * dgemv, dger, dtrsv, dtrmv, dtpsv, dtpmv, dsymv, dspmv, dsyr and dspr
 * (Blas.h has the convention).
 *===----------------------------------------------------------------------===*/
#include "CblasRules.h"

#include <string.h>

/*--- dgemv: y = alpha op(A) x + beta y -------------------------------------*/

struct gemv_tape {
  double *a, *x, *y;
};

void *__capsule_blas_dgemv_aug(int order, int dorder, int trans, int dtrans,
                               int m, int dm, int n, int dn, double alpha,
                               const double *a, double *da, int lda, int dlda,
                               const double *x, double *dx, int incx, int dincx,
                               double beta, double *y, double *dy, int incy,
                               int dincy) {
  int lenx = trans == NoTrans ? n : m, leny = trans == NoTrans ? m : n;
  struct gemv_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, m, n, a, lda);
  t->x = __capsule_blas_vector_copy(lenx, x, incx);
  t->y = __capsule_blas_vector_copy(leny, y, incy);
  cblas_dgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
  return t;
}

two_adjoints __capsule_blas_dgemv_grad(
    int order, int dorder, int trans, int dtrans, int m, int dm, int n, int dn,
    double alpha, const double *a, double *da, int lda, int dlda,
    const double *x, double *dx, int incx, int dincx, double beta, double *y,
    double *dy, int incy, int dincy, void *tape) {
  struct gemv_tape *t = tape;
  int lenx = trans == NoTrans ? n : m, leny = trans == NoTrans ? m : n;
  int pld = packed_ld(order, m, n);
  two_adjoints g = {0, 0};
  if (leny > 0) {
    double *z = __capsule_blas_scratch_alloc(sizeof(double) * leny);
    cblas_dgemv(order, trans, m, n, 1.0, t->a, pld, t->x, 1, 0.0, z, 1);
    g.dalpha = cblas_ddot(leny, dy, incy, z, 1);
    __capsule_blas_scratch_free(z);
    if (beta != 0)
      g.dbeta = cblas_ddot(leny, dy, incy, t->y, 1);
  }
  if (lenx > 0 && leny > 0) {
    cblas_dgemv(order, flip(trans), m, n, alpha, t->a, pld, dy, incy, 1.0, dx,
                incx);
    if (trans == NoTrans)
      cblas_dger(order, m, n, alpha, dy, incy, t->x, 1, da, lda);
    else
      cblas_dger(order, m, n, alpha, t->x, 1, dy, incy, da, lda);
  }
  scale_vector(leny, beta, dy, incy);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t->x);
  __capsule_blas_scratch_free(t->y);
  __capsule_blas_scratch_free(t);
  return g;
}

void __capsule_blas_dgemv_tan(int order, int dorder, int trans, int dtrans,
                              int m, int dm, int n, int dn, double alpha,
                              double dalpha, const double *a, const double *da,
                              int lda, int dlda, const double *x,
                              const double *dx, int incx, int dincx,
                              double beta, double dbeta, double *y, double *dy,
                              int incy, int dincy) {
  int leny = trans == NoTrans ? m : n;
  scale_vector(leny, beta, dy, incy);
  if (beta != 0 && dbeta != 0)
    cblas_daxpy(leny, dbeta, y, incy, dy, incy);
  cblas_dgemv(order, trans, m, n, alpha, da, lda, x, incx, 1.0, dy, incy);
  cblas_dgemv(order, trans, m, n, alpha, a, lda, dx, incx, 1.0, dy, incy);
  cblas_dgemv(order, trans, m, n, dalpha, a, lda, x, incx, 1.0, dy, incy);
  cblas_dgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

/*--- dger: A += alpha x y^T ------------------------------------------------*/

struct ger_tape {
  double *x, *y;
};

void *__capsule_blas_dger_aug(int order, int dorder, int m, int dm, int n,
                              int dn, double alpha, const double *x, double *dx,
                              int incx, int dincx, const double *y, double *dy,
                              int incy, int dincy, double *a, double *da,
                              int lda, int dlda) {
  struct ger_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->x = __capsule_blas_vector_copy(m, x, incx);
  t->y = __capsule_blas_vector_copy(n, y, incy);
  cblas_dger(order, m, n, alpha, x, incx, y, incy, a, lda);
  return t;
}

/* dA passes through unchanged; dx += alpha dA y, dy += alpha dA^T x,
 * dalpha = x^T dA y. */
double __capsule_blas_dger_grad(int order, int dorder, int m, int dm, int n,
                                int dn, double alpha, const double *x,
                                double *dx, int incx, int dincx,
                                const double *y, double *dy, int incy,
                                int dincy, double *a, double *da, int lda,
                                int dlda, void *tape) {
  struct ger_tape *t = tape;
  double dalpha = 0;
  if (m > 0 && n > 0) {
    double *z = __capsule_blas_scratch_alloc(sizeof(double) * m);
    cblas_dgemv(order, NoTrans, m, n, 1.0, da, lda, t->y, 1, 0.0, z, 1);
    dalpha = cblas_ddot(m, t->x, 1, z, 1);
    cblas_daxpy(m, alpha, z, 1, dx, incx);
    __capsule_blas_scratch_free(z);
    cblas_dgemv(order, Trans, m, n, alpha, da, lda, t->x, 1, 1.0, dy, incy);
  }
  __capsule_blas_scratch_free(t->y);
  __capsule_blas_scratch_free(t->x);
  __capsule_blas_scratch_free(t);
  return dalpha;
}

void __capsule_blas_dger_tan(int order, int dorder, int m, int dm, int n,
                             int dn, double alpha, double dalpha,
                             const double *x, const double *dx, int incx,
                             int dincx, const double *y, const double *dy,
                             int incy, int dincy, double *a, double *da,
                             int lda, int dlda) {
  cblas_dger(order, m, n, dalpha, x, incx, y, incy, da, lda);
  cblas_dger(order, m, n, alpha, dx, incx, y, incy, da, lda);
  cblas_dger(order, m, n, alpha, x, incx, dy, incy, da, lda);
  cblas_dger(order, m, n, alpha, x, incx, y, incy, a, lda);
}

/*--- dtrsv: x = op(A)^-1 x, A triangular -----------------------------------*/

/* The gradient needs A and the solution: with b the input and x the output,
 * db = op(A)^-T dx and d op(A) -= db x^T, on the triangle the routine
 * reads. */
struct trsv_tape {
  double *a, *x;
};

void *__capsule_blas_dtrsv_aug(int order, int dorder, int uplo, int duplo,
                               int trans, int dtrans, int diag, int ddiag,
                               int n, int dn, const double *a, double *da,
                               int lda, int dlda, double *x, double *dx,
                               int incx, int dincx) {
  struct trsv_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, n, n, a, lda);
  cblas_dtrsv(order, uplo, trans, diag, n, a, lda, x, incx);
  t->x = __capsule_blas_vector_copy(n, x, incx);
  return t;
}

/* op(dA) x on the triangle of dA the routine reads, packed: with a unit
 * diagonal, dA's diagonal is not read, so x itself is taken away again. */
static double *triangle_times(int order, int uplo, int trans, int diag, int n,
                              const double *da, int lda, const double *x,
                              int incx) {
  double *p = __capsule_blas_vector_copy(n, x, incx);
  cblas_dtrmv(order, uplo, trans, diag, n, da, lda, p, 1);
  if (diag == Unit)
    cblas_daxpy(n, -1.0, x, incx, p, 1);
  return p;
}

/* d op(A) += scale u v^T on the triangle of A the routine reads. */
static void add_outer_on_triangle(int order, int uplo, int trans, int diag,
                                  int n, double scale, const double *u,
                                  const double *v, double *da, int lda) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (in_triangle(uplo, diag, i, j))
        *at(order, da, lda, i, j) +=
            scale * (trans == NoTrans ? u[i] * v[j] : u[j] * v[i]);
}

void __capsule_blas_dtrsv_grad(int order, int dorder, int uplo, int duplo,
                               int trans, int dtrans, int diag, int ddiag,
                               int n, int dn, const double *a, double *da,
                               int lda, int dlda, double *x, double *dx,
                               int incx, int dincx, void *tape) {
  struct trsv_tape *t = tape;
  if (n > 0) {
    int pld = packed_ld(order, n, n);
    cblas_dtrsv(order, uplo, flip(trans), diag, n, t->a, pld, dx, incx);
    double *db = __capsule_blas_vector_copy(n, dx, incx);
    add_outer_on_triangle(order, uplo, trans, diag, n, -1.0, db, t->x, da, lda);
    __capsule_blas_scratch_free(db);
  }
  __capsule_blas_scratch_free(t->x);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t);
}

/* dx = op(A)^-1 (db - d op(A) x), with x the solution. */
void __capsule_blas_dtrsv_tan(int order, int dorder, int uplo, int duplo,
                              int trans, int dtrans, int diag, int ddiag, int n,
                              int dn, const double *a, const double *da,
                              int lda, int dlda, double *x, double *dx,
                              int incx, int dincx) {
  cblas_dtrsv(order, uplo, trans, diag, n, a, lda, x, incx);
  if (n <= 0)
    return;
  double *p = triangle_times(order, uplo, trans, diag, n, da, lda, x, incx);
  cblas_daxpy(n, -1.0, p, 1, dx, incx);
  __capsule_blas_scratch_free(p);
  cblas_dtrsv(order, uplo, trans, diag, n, a, lda, dx, incx);
}

/*--- dtrmv: x = op(A) x, A triangular --------------------------------------*/

/* With x0 the input: dx0 = op(A)^T dx and d op(A) += dx x0^T, on the
 * triangle the routine reads. */
struct trmv_tape {
  double *a, *x;
};

void *__capsule_blas_dtrmv_aug(int order, int dorder, int uplo, int duplo,
                               int trans, int dtrans, int diag, int ddiag,
                               int n, int dn, const double *a, double *da,
                               int lda, int dlda, double *x, double *dx,
                               int incx, int dincx) {
  struct trmv_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, n, n, a, lda);
  t->x = __capsule_blas_vector_copy(n, x, incx);
  cblas_dtrmv(order, uplo, trans, diag, n, a, lda, x, incx);
  return t;
}

void __capsule_blas_dtrmv_grad(int order, int dorder, int uplo, int duplo,
                               int trans, int dtrans, int diag, int ddiag,
                               int n, int dn, const double *a, double *da,
                               int lda, int dlda, double *x, double *dx,
                               int incx, int dincx, void *tape) {
  struct trmv_tape *t = tape;
  if (n > 0) {
    double *dy = __capsule_blas_vector_copy(n, dx, incx);
    add_outer_on_triangle(order, uplo, trans, diag, n, 1.0, dy, t->x, da, lda);
    __capsule_blas_scratch_free(dy);
    cblas_dtrmv(order, uplo, flip(trans), diag, n, t->a, packed_ld(order, n, n),
                dx, incx);
  }
  __capsule_blas_scratch_free(t->x);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t);
}

/* dx = op(dA) x0 + op(A) dx0, dA on the triangle the routine reads. */
void __capsule_blas_dtrmv_tan(int order, int dorder, int uplo, int duplo,
                              int trans, int dtrans, int diag, int ddiag, int n,
                              int dn, const double *a, const double *da,
                              int lda, int dlda, double *x, double *dx,
                              int incx, int dincx) {
  if (n <= 0)
    return;
  double *p = triangle_times(order, uplo, trans, diag, n, da, lda, x, incx);
  cblas_dtrmv(order, uplo, trans, diag, n, a, lda, dx, incx);
  cblas_daxpy(n, 1.0, p, 1, dx, incx);
  __capsule_blas_scratch_free(p);
  cblas_dtrmv(order, uplo, trans, diag, n, a, lda, x, incx);
}

/*--- dsymv: y = alpha A x + beta y, A symmetric, one triangle stored --------*/

struct symv_tape {
  double *a, *x, *y;
};

void *__capsule_blas_dsymv_aug(int order, int dorder, int uplo, int duplo,
                               int n, int dn, double alpha, const double *a,
                               double *da, int lda, int dlda, const double *x,
                               double *dx, int incx, int dincx, double beta,
                               double *y, double *dy, int incy, int dincy) {
  struct symv_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, n, n, a, lda);
  t->x = __capsule_blas_vector_copy(n, x, incx);
  t->y = __capsule_blas_vector_copy(n, y, incy);
  cblas_dsymv(order, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
  return t;
}

/* The stored entry (i, j) of A stands for (i, j) and (j, i): off the
 * diagonal its adjoint is alpha (dy_i x_j + dy_j x_i). */
two_adjoints __capsule_blas_dsymv_grad(int order, int dorder, int uplo,
                                       int duplo, int n, int dn, double alpha,
                                       const double *a, double *da, int lda,
                                       int dlda, const double *x, double *dx,
                                       int incx, int dincx, double beta,
                                       double *y, double *dy, int incy,
                                       int dincy, void *tape) {
  struct symv_tape *t = tape;
  two_adjoints g = {0, 0};
  if (n > 0) {
    int pld = packed_ld(order, n, n);
    double *z = __capsule_blas_scratch_alloc(sizeof(double) * n);
    cblas_dsymv(order, uplo, n, 1.0, t->a, pld, t->x, 1, 0.0, z, 1);
    g.dalpha = cblas_ddot(n, dy, incy, z, 1);
    __capsule_blas_scratch_free(z);
    if (beta != 0)
      g.dbeta = cblas_ddot(n, dy, incy, t->y, 1);
    cblas_dsymv(order, uplo, n, alpha, t->a, pld, dy, incy, 1.0, dx, incx);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (in_triangle(uplo, NonUnit, i, j)) {
          double dyi = *element(dy, n, incy, i), dyj = *element(dy, n, incy, j);
          *at(order, da, lda, i, j) +=
              i == j ? alpha * dyi * t->x[i]
                     : alpha * (dyi * t->x[j] + dyj * t->x[i]);
        }
  }
  scale_vector(n, beta, dy, incy);
  __capsule_blas_scratch_free(t->y);
  __capsule_blas_scratch_free(t->x);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t);
  return g;
}

void __capsule_blas_dsymv_tan(int order, int dorder, int uplo, int duplo, int n,
                              int dn, double alpha, double dalpha,
                              const double *a, const double *da, int lda,
                              int dlda, const double *x, const double *dx,
                              int incx, int dincx, double beta, double dbeta,
                              double *y, double *dy, int incy, int dincy) {
  scale_vector(n, beta, dy, incy);
  if (beta != 0 && dbeta != 0)
    cblas_daxpy(n, dbeta, y, incy, dy, incy);
  cblas_dsymv(order, uplo, n, alpha, da, lda, x, incx, 1.0, dy, incy);
  cblas_dsymv(order, uplo, n, alpha, a, lda, dx, incx, 1.0, dy, incy);
  cblas_dsymv(order, uplo, n, dalpha, a, lda, x, incx, 1.0, dy, incy);
  cblas_dsymv(order, uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}

/*--- dspmv: dsymv with A packed ----------------------------------------*/

/* A packed triangle (column by column in column-major order, row by row in
 * row-major, which is the other triangle of the column-major matrix) is
 * unpacked into a full column-major matrix with that triangle stored, and
 * dsymv's rules do the work; the adjoint of A comes back through the full
 * matrix's. */
static int column_major_uplo(int order, int uplo) {
  return order == RowMajor ? (uplo == Upper ? Lower : Upper) : uplo;
}

/* Where entry (i, j) of triangle uplo of a column-major n x n matrix is
 * packed. */
static long packed_index(int uplo, int n, int i, int j) {
  return uplo == Upper ? i + (long)j * (j + 1) / 2
                       : i + (long)j * (2L * n - j - 1) / 2;
}

/* A zeroed n x n scratch matrix. */
static double *zeroed_square(int n) {
  long nn = (long)n * n;
  double *m = __capsule_blas_scratch_alloc(sizeof(double) * (nn ? nn : 1));
  memset(m, 0, sizeof(double) * nn);
  return m;
}

/* Packing ap as a column-major n x n matrix with triangle uplo stored. */
static double *unpacked(int uplo, int n, const double *ap) {
  double *full = zeroed_square(n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (in_triangle(uplo, NonUnit, i, j))
        full[i + (long)j * n] = ap[packed_index(uplo, n, i, j)];
  return full;
}

/* Stores triangle uplo of the column-major n x n matrix full in its
 * packing ap, or with add adds it there. */
static void pack(int uplo, int n, const double *full, double *ap, int add) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (in_triangle(uplo, NonUnit, i, j)) {
        double *to = ap + packed_index(uplo, n, i, j);
        *to = (add ? *to : 0) + full[i + (long)j * n];
      }
}

void *__capsule_blas_dspmv_aug(int order, int dorder, int uplo, int duplo,
                               int n, int dn, double alpha, const double *ap,
                               double *dap, const double *x, double *dx,
                               int incx, int dincx, double beta, double *y,
                               double *dy, int incy, int dincy) {
  int u = column_major_uplo(order, uplo);
  double *full = unpacked(u, n, ap);
  void *tape = __capsule_blas_dsymv_aug(ColMajor, 0, u, 0, n, 0, alpha, full,
                                        NULL, n > 0 ? n : 1, 0, x, dx, incx, 0,
                                        beta, y, dy, incy, 0);
  __capsule_blas_scratch_free(full);
  return tape;
}

two_adjoints __capsule_blas_dspmv_grad(int order, int dorder, int uplo,
                                       int duplo, int n, int dn, double alpha,
                                       const double *ap, double *dap,
                                       const double *x, double *dx, int incx,
                                       int dincx, double beta, double *y,
                                       double *dy, int incy, int dincy,
                                       void *tape) {
  int u = column_major_uplo(order, uplo);
  double *dfull = zeroed_square(n);
  two_adjoints g = __capsule_blas_dsymv_grad(
      ColMajor, 0, u, 0, n, 0, alpha, NULL, dfull, n > 0 ? n : 1, 0, x, dx,
      incx, 0, beta, y, dy, incy, 0, tape);
  pack(u, n, dfull, dap, /*add=*/1);
  __capsule_blas_scratch_free(dfull);
  return g;
}

void __capsule_blas_dspmv_tan(int order, int dorder, int uplo, int duplo, int n,
                              int dn, double alpha, double dalpha,
                              const double *ap, const double *dap,
                              const double *x, const double *dx, int incx,
                              int dincx, double beta, double dbeta, double *y,
                              double *dy, int incy, int dincy) {
  int u = column_major_uplo(order, uplo);
  double *full = unpacked(u, n, ap), *dfull = unpacked(u, n, dap);
  __capsule_blas_dsymv_tan(ColMajor, 0, u, 0, n, 0, alpha, dalpha, full, dfull,
                           n > 0 ? n : 1, 0, x, dx, incx, 0, beta, dbeta, y, dy,
                           incy, 0);
  __capsule_blas_scratch_free(dfull);
  __capsule_blas_scratch_free(full);
}

/*--- dtpsv and dtpmv: dtrsv and dtrmv with A packed ----------------------*/

/* dtrsv's and dtrmv's rules on A unpacked. A row-major matrix is the
 * transpose of the column-major one with the same storage: the other
 * triangle, and the other transpose. */
static int column_major_trans(int order, int trans) {
  return order == RowMajor ? flip(trans) : trans;
}

static void *unpacked_triangular_aug(triangular_vector_aug *aug, int order,
                                     int uplo, int trans, int diag, int n,
                                     const double *ap, double *x, double *dx,
                                     int incx) {
  int u = column_major_uplo(order, uplo);
  double *full = unpacked(u, n, ap);
  void *tape = aug(ColMajor, 0, u, 0, column_major_trans(order, trans), 0, diag,
                   0, n, 0, full, NULL, n > 0 ? n : 1, 0, x, dx, incx, 0);
  __capsule_blas_scratch_free(full);
  return tape;
}

static void unpacked_triangular_grad(triangular_vector_grad *grad, int order,
                                     int uplo, int trans, int diag, int n,
                                     double *dap, double *x, double *dx,
                                     int incx, void *tape) {
  int u = column_major_uplo(order, uplo);
  double *dfull = zeroed_square(n);
  grad(ColMajor, 0, u, 0, column_major_trans(order, trans), 0, diag, 0, n, 0,
       NULL, dfull, n > 0 ? n : 1, 0, x, dx, incx, 0, tape);
  pack(u, n, dfull, dap, /*add=*/1);
  __capsule_blas_scratch_free(dfull);
}

static void unpacked_triangular_tan(triangular_vector_tan *tan, int order,
                                    int uplo, int trans, int diag, int n,
                                    const double *ap, const double *dap,
                                    double *x, double *dx, int incx) {
  int u = column_major_uplo(order, uplo);
  double *full = unpacked(u, n, ap), *dfull = unpacked(u, n, dap);
  tan(ColMajor, 0, u, 0, column_major_trans(order, trans), 0, diag, 0, n, 0,
      full, dfull, n > 0 ? n : 1, 0, x, dx, incx, 0);
  __capsule_blas_scratch_free(dfull);
  __capsule_blas_scratch_free(full);
}

#define PACKED_TRIANGULAR_RULES(PACKED, FULL)                                  \
  void *__capsule_blas_d##PACKED##_aug(                                        \
      int order, int dorder, int uplo, int duplo, int trans, int dtrans,       \
      int diag, int ddiag, int n, int dn, const double *ap, double *dap,       \
      double *x, double *dx, int incx, int dincx) {                            \
    return unpacked_triangular_aug(__capsule_blas_d##FULL##_aug, order, uplo,  \
                                   trans, diag, n, ap, x, dx, incx);           \
  }                                                                            \
  void __capsule_blas_d##PACKED##_grad(                                        \
      int order, int dorder, int uplo, int duplo, int trans, int dtrans,       \
      int diag, int ddiag, int n, int dn, const double *ap, double *dap,       \
      double *x, double *dx, int incx, int dincx, void *tape) {                \
    unpacked_triangular_grad(__capsule_blas_d##FULL##_grad, order, uplo,       \
                             trans, diag, n, dap, x, dx, incx, tape);          \
  }                                                                            \
  void __capsule_blas_d##PACKED##_tan(                                         \
      int order, int dorder, int uplo, int duplo, int trans, int dtrans,       \
      int diag, int ddiag, int n, int dn, const double *ap, const double *dap, \
      double *x, double *dx, int incx, int dincx) {                            \
    unpacked_triangular_tan(__capsule_blas_d##FULL##_tan, order, uplo, trans,  \
                            diag, n, ap, dap, x, dx, incx);                    \
  }

PACKED_TRIANGULAR_RULES(tpsv, trsv)
PACKED_TRIANGULAR_RULES(tpmv, trmv)

/*--- dsyr: A += alpha x x^T on the stored triangle ------------------------*/

/* dsyrk of x as an n x 1 matrix with beta = 1: x is packed (its stride
 * may be anything) and dsyrk's rules do the work; x's adjoint comes back
 * through the packed copy's. */
static int column_ld(int order, int n) { return packed_ld(order, n, 1); }

void *__capsule_blas_dsyr_aug(int order, int dorder, int uplo, int duplo, int n,
                              int dn, double alpha, const double *x, double *dx,
                              int incx, int dincx, double *a, double *da,
                              int lda, int dlda) {
  double *packed = __capsule_blas_vector_copy(n, x, incx);
  void *tape = __capsule_blas_dsyrk_aug(
      order, 0, uplo, 0, NoTrans, 0, n, 0, 1, 0, alpha, packed, NULL,
      column_ld(order, n), 0, 1.0, a, da, lda, 0);
  __capsule_blas_scratch_free(packed);
  return tape;
}

double __capsule_blas_dsyr_grad(int order, int dorder, int uplo, int duplo,
                                int n, int dn, double alpha, const double *x,
                                double *dx, int incx, int dincx, double *a,
                                double *da, int lda, int dlda, void *tape) {
  double *dpacked =
      __capsule_blas_scratch_alloc(sizeof(double) * (n > 0 ? n : 1));
  memset(dpacked, 0, sizeof(double) * (n > 0 ? n : 1));
  two_adjoints g = __capsule_blas_dsyrk_grad(
      order, 0, uplo, 0, NoTrans, 0, n, 0, 1, 0, alpha, NULL, dpacked,
      column_ld(order, n), 0, 1.0, a, da, lda, 0, tape);
  if (n > 0)
    cblas_daxpy(n, 1.0, dpacked, 1, dx, incx);
  __capsule_blas_scratch_free(dpacked);
  return g.dalpha;
}

void __capsule_blas_dsyr_tan(int order, int dorder, int uplo, int duplo, int n,
                             int dn, double alpha, double dalpha,
                             const double *x, const double *dx, int incx,
                             int dincx, double *a, double *da, int lda,
                             int dlda) {
  double *packed = __capsule_blas_vector_copy(n, x, incx);
  double *dpacked = __capsule_blas_vector_copy(n, dx, incx);
  __capsule_blas_dsyrk_tan(order, 0, uplo, 0, NoTrans, 0, n, 0, 1, 0, alpha,
                           dalpha, packed, dpacked, column_ld(order, n), 0, 1.0,
                           0.0, a, da, lda, 0);
  __capsule_blas_scratch_free(dpacked);
  __capsule_blas_scratch_free(packed);
}

/*--- dspr: dsyr with A packed ---------------------------------------------*/

/* dsyr's rules on A unpacked, which is packed again: the matrix and its
 * tangent after the update. A's adjoint, which the gradient reads, passes
 * through unchanged (the update adds to A). */
void *__capsule_blas_dspr_aug(int order, int dorder, int uplo, int duplo, int n,
                              int dn, double alpha, const double *x, double *dx,
                              int incx, int dincx, double *ap, double *dap) {
  int u = column_major_uplo(order, uplo);
  double *full = unpacked(u, n, ap);
  void *tape = __capsule_blas_dsyr_aug(ColMajor, 0, u, 0, n, 0, alpha, x, dx,
                                       incx, 0, full, NULL, n > 0 ? n : 1, 0);
  pack(u, n, full, ap, /*add=*/0);
  __capsule_blas_scratch_free(full);
  return tape;
}

double __capsule_blas_dspr_grad(int order, int dorder, int uplo, int duplo,
                                int n, int dn, double alpha, const double *x,
                                double *dx, int incx, int dincx, double *ap,
                                double *dap, void *tape) {
  int u = column_major_uplo(order, uplo);
  double *dfull = unpacked(u, n, dap);
  double dalpha =
      __capsule_blas_dsyr_grad(ColMajor, 0, u, 0, n, 0, alpha, x, dx, incx, 0,
                               NULL, dfull, n > 0 ? n : 1, 0, tape);
  __capsule_blas_scratch_free(dfull);
  return dalpha;
}

void __capsule_blas_dspr_tan(int order, int dorder, int uplo, int duplo, int n,
                             int dn, double alpha, double dalpha,
                             const double *x, const double *dx, int incx,
                             int dincx, double *ap, double *dap) {
  int u = column_major_uplo(order, uplo);
  double *full = unpacked(u, n, ap), *dfull = unpacked(u, n, dap);
  __capsule_blas_dsyr_tan(ColMajor, 0, u, 0, n, 0, alpha, dalpha, x, dx, incx,
                          0, full, dfull, n > 0 ? n : 1, 0);
  pack(u, n, full, ap, /*add=*/0);
  pack(u, n, dfull, dap, /*add=*/0);
  __capsule_blas_scratch_free(dfull);
  __capsule_blas_scratch_free(full);
}
