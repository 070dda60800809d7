/*===- Level3.c - Rules of the level-3 BLAS routines ---------------------===*
 *
 * dgemm, dtrsm, dtrmm, dsymm, dsyrk and dsyr2k (Blas.h has the convention).
 *===----------------------------------------------------------------------===*/
#include "CblasRules.h"

#include <string.h>

/*--- dgemm: C = alpha op(A) op(B) + beta C ---------------------------------*/

/* The augmented rule computes P = op(A) op(B) and C = alpha P + beta C
 * itself, keeping P, so that the adjoint of alpha costs no third product:
 * the gradient's products are the two of dA and dB. */
struct gemm_tape {
  double *a, *b, *c, *p;
};

void *__capsule_blas_dgemm_aug(int order, int dorder, int transa, int dtransa,
                               int transb, int dtransb, int m, int dm, int n,
                               int dn, int k, int dk, double alpha,
                               const double *a, double *da, int lda, int dlda,
                               const double *b, double *db, int ldb, int dldb,
                               double beta, double *c, double *dc, int ldc,
                               int dldc) {
  struct gemm_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  int ar = transa == NoTrans ? m : k, ac = transa == NoTrans ? k : m;
  int br = transb == NoTrans ? k : n, bc = transb == NoTrans ? n : k;
  int pa = packed_ld(order, ar, ac), pb = packed_ld(order, br, bc);
  int pc = packed_ld(order, m, n);
  t->a = __capsule_blas_matrix_copy(order, ar, ac, a, lda);
  t->b = __capsule_blas_matrix_copy(order, br, bc, b, ldb);
  t->c = beta != 0 ? __capsule_blas_matrix_copy(order, m, n, c, ldc) : NULL;
  t->p = __capsule_blas_scratch_alloc(sizeof(double) *
                                      ((long)m * n > 0 ? (long)m * n : 1));
  if (m > 0 && n > 0 && k > 0)
    cblas_dgemm(order, transa, transb, m, n, k, 1.0, t->a, pa, t->b, pb, 0.0,
                t->p, pc);
  else if (m > 0 && n > 0)
    memset(t->p, 0, sizeof(double) * (long)m * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double *cij = at(order, c, ldc, i, j);
      double prod = alpha * *at(order, t->p, pc, i, j);
      *cij = beta != 0 ? prod + beta * *cij : prod;
    }
  return t;
}

two_adjoints
__capsule_blas_dgemm_grad(int order, int dorder, int transa, int dtransa,
                          int transb, int dtransb, int m, int dm, int n, int dn,
                          int k, int dk, double alpha, const double *a,
                          double *da, int lda, int dlda, const double *b,
                          double *db, int ldb, int dldb, double beta, double *c,
                          double *dc, int ldc, int dldc, void *tape) {
  struct gemm_tape *t = tape;
  int ar = transa == NoTrans ? m : k, ac = transa == NoTrans ? k : m;
  int br = transb == NoTrans ? k : n, bc = transb == NoTrans ? n : k;
  int pa = packed_ld(order, ar, ac), pb = packed_ld(order, br, bc);
  int pc = packed_ld(order, m, n);
  two_adjoints g = {0, 0};
  g.dalpha = frobenius(order, m, n, dc, ldc, t->p, pc);
  if (beta != 0)
    g.dbeta = frobenius(order, m, n, dc, ldc, t->c, pc);
  if (m > 0 && n > 0 && k > 0) {
    /* d op(A) += alpha dC op(B)^T; d op(B) += alpha op(A)^T dC. */
    if (transa == NoTrans)
      cblas_dgemm(order, NoTrans, flip(transb), m, k, n, alpha, dc, ldc, t->b,
                  pb, 1.0, da, lda);
    else
      cblas_dgemm(order, transb, flip(NoTrans), k, m, n, alpha, t->b, pb, dc,
                  ldc, 1.0, da, lda);
    if (transb == NoTrans)
      cblas_dgemm(order, flip(transa), NoTrans, k, n, m, alpha, t->a, pa, dc,
                  ldc, 1.0, db, ldb);
    else
      cblas_dgemm(order, flip(NoTrans), transa, n, k, m, alpha, dc, ldc, t->a,
                  pa, 1.0, db, ldb);
  }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      *at(order, dc, ldc, i, j) *= beta;
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t->b);
  __capsule_blas_scratch_free(t->c);
  __capsule_blas_scratch_free(t->p);
  __capsule_blas_scratch_free(t);
  return g;
}

void __capsule_blas_dgemm_tan(int order, int dorder, int transa, int dtransa,
                              int transb, int dtransb, int m, int dm, int n,
                              int dn, int k, int dk, double alpha,
                              double dalpha, const double *a, const double *da,
                              int lda, int dlda, const double *b,
                              const double *db, int ldb, int dldb, double beta,
                              double dbeta, double *c, double *dc, int ldc,
                              int dldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double *d = at(order, dc, ldc, i, j);
      *d = beta * *d + (beta != 0 ? dbeta * *at(order, c, ldc, i, j) : 0);
    }
  cblas_dgemm(order, transa, transb, m, n, k, alpha, da, lda, b, ldb, 1.0, dc,
              ldc);
  cblas_dgemm(order, transa, transb, m, n, k, alpha, a, lda, db, ldb, 1.0, dc,
              ldc);
  cblas_dgemm(order, transa, transb, m, n, k, dalpha, a, lda, b, ldb, 1.0, dc,
              ldc);
  cblas_dgemm(order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
              ldc);
}

/*--- dtrsm: B = alpha op(A)^-1 B (side Left) or alpha B op(A)^-1 (Right) ---*/

/* With B0 the input and X the solution, op(A) X = alpha B0 (Left) gives
 * Y = op(A)^-T dX, dB0 = alpha Y, dalpha = <Y, B0>, d op(A) -= Y X^T; on the
 * right, X op(A) = alpha B0 gives Y = dX op(A)^-T and d op(A) -= X^T Y. */
struct trsm_tape {
  double *a, *b, *x;
};

void *__capsule_blas_dtrsm_aug(int order, int dorder, int side, int dside,
                               int uplo, int duplo, int transa, int dtransa,
                               int diag, int ddiag, int m, int dm, int n,
                               int dn, double alpha, const double *a,
                               double *da, int lda, int dlda, double *b,
                               double *db, int ldb, int dldb) {
  int k = side == Left ? m : n;
  struct trsm_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, k, k, a, lda);
  t->b = __capsule_blas_matrix_copy(order, m, n, b, ldb);
  cblas_dtrsm(order, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
  t->x = __capsule_blas_matrix_copy(order, m, n, b, ldb);
  return t;
}

/* op(dA) B (side Left) or B op(dA) (Right) on the triangle of dA the
 * routine reads, packed: with a unit diagonal, dA's diagonal is not read,
 * so B itself is taken away again. */
static double *triangle_times(int order, int side, int uplo, int transa,
                              int diag, int m, int n, const double *da, int lda,
                              const double *b, int ldb) {
  int pb = packed_ld(order, m, n);
  double *p = __capsule_blas_matrix_copy(order, m, n, b, ldb);
  cblas_dtrmm(order, side, uplo, transa, diag, m, n, 1.0, da, lda, p, pb);
  if (diag == Unit)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        *at(order, p, pb, i, j) -= *at(order, (double *)b, ldb, i, j);
  return p;
}

/* d op(A) += scale G on the triangle of A the routine reads, G packed
 * k x k. */
static void add_on_triangle(int order, int uplo, int transa, int diag, int k,
                            double scale, const double *g, double *da,
                            int lda) {
  int pk = packed_ld(order, k, k);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      if (in_triangle(uplo, diag, i, j))
        *at(order, da, lda, i, j) +=
            scale * (transa == NoTrans ? *at(order, (double *)g, pk, i, j)
                                       : *at(order, (double *)g, pk, j, i));
}

double __capsule_blas_dtrsm_grad(int order, int dorder, int side, int dside,
                                 int uplo, int duplo, int transa, int dtransa,
                                 int diag, int ddiag, int m, int dm, int n,
                                 int dn, double alpha, const double *a,
                                 double *da, int lda, int dlda, double *b,
                                 double *db, int ldb, int dldb, void *tape) {
  struct trsm_tape *t = tape;
  int k = side == Left ? m : n;
  int pk = packed_ld(order, k, k), pb = packed_ld(order, m, n);
  double dalpha = 0;
  if (m > 0 && n > 0) {
    /* Y in place of dX. */
    cblas_dtrsm(order, side, uplo, flip(transa), diag, m, n, 1.0, t->a, pk, db,
                ldb);
    dalpha = frobenius(order, m, n, db, ldb, t->b, pb);
    double *g = __capsule_blas_scratch_alloc(sizeof(double) * k * k);
    if (side == Left)
      cblas_dgemm(order, NoTrans, Trans, k, k, n, 1.0, db, ldb, t->x, pb, 0.0,
                  g, pk);
    else
      cblas_dgemm(order, Trans, NoTrans, k, k, m, 1.0, t->x, pb, db, ldb, 0.0,
                  g, pk);
    add_on_triangle(order, uplo, transa, diag, k, -1.0, g, da, lda);
    __capsule_blas_scratch_free(g);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        *at(order, db, ldb, i, j) *= alpha;
  }
  __capsule_blas_scratch_free(t->x);
  __capsule_blas_scratch_free(t->b);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t);
  return dalpha;
}

/* dX = op(A)^-1 (dalpha B0 + alpha dB0 - d op(A) X) on the left, and
 * (dalpha B0 + alpha dB0 - X d op(A)) op(A)^-1 on the right. */
void __capsule_blas_dtrsm_tan(int order, int dorder, int side, int dside,
                              int uplo, int duplo, int transa, int dtransa,
                              int diag, int ddiag, int m, int dm, int n, int dn,
                              double alpha, double dalpha, const double *a,
                              const double *da, int lda, int dlda, double *b,
                              double *db, int ldb, int dldb) {
  if (m <= 0 || n <= 0)
    return;
  int pb = packed_ld(order, m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double *d = at(order, db, ldb, i, j);
      *d = alpha * *d + dalpha * *at(order, b, ldb, i, j);
    }
  cblas_dtrsm(order, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
  double *p =
      triangle_times(order, side, uplo, transa, diag, m, n, da, lda, b, ldb);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      *at(order, db, ldb, i, j) -= *at(order, p, pb, i, j);
  __capsule_blas_scratch_free(p);
  cblas_dtrsm(order, side, uplo, transa, diag, m, n, 1.0, a, lda, db, ldb);
}

/*--- dtrmm: B = alpha op(A) B (side Left) or alpha B op(A) (Right) --------*/

/* With B0 the input and G the adjoint of the result: on the left,
 * dB0 = alpha op(A)^T G, d op(A) += alpha G B0^T; on the right, dB0 =
 * alpha G op(A)^T, d op(A) += alpha B0^T G; dalpha = <G, op(A) B0> or
 * <G, B0 op(A)>. */
struct trmm_tape {
  double *a, *b;
};

void *__capsule_blas_dtrmm_aug(int order, int dorder, int side, int dside,
                               int uplo, int duplo, int transa, int dtransa,
                               int diag, int ddiag, int m, int dm, int n,
                               int dn, double alpha, const double *a,
                               double *da, int lda, int dlda, double *b,
                               double *db, int ldb, int dldb) {
  int k = side == Left ? m : n;
  struct trmm_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, k, k, a, lda);
  t->b = __capsule_blas_matrix_copy(order, m, n, b, ldb);
  cblas_dtrmm(order, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
  return t;
}

double __capsule_blas_dtrmm_grad(int order, int dorder, int side, int dside,
                                 int uplo, int duplo, int transa, int dtransa,
                                 int diag, int ddiag, int m, int dm, int n,
                                 int dn, double alpha, const double *a,
                                 double *da, int lda, int dlda, double *b,
                                 double *db, int ldb, int dldb, void *tape) {
  struct trmm_tape *t = tape;
  int k = side == Left ? m : n;
  int pk = packed_ld(order, k, k), pb = packed_ld(order, m, n);
  double dalpha = 0;
  if (m > 0 && n > 0) {
    double *g = __capsule_blas_scratch_alloc(sizeof(double) * k * k);
    if (side == Left)
      cblas_dgemm(order, NoTrans, Trans, k, k, n, alpha, db, ldb, t->b, pb, 0.0,
                  g, pk);
    else
      cblas_dgemm(order, Trans, NoTrans, k, k, m, alpha, t->b, pb, db, ldb, 0.0,
                  g, pk);
    add_on_triangle(order, uplo, transa, diag, k, 1.0, g, da, lda);
    __capsule_blas_scratch_free(g);
    /* op(A) B0 (or B0 op(A)) for the adjoint of alpha, in a copy: the tape
     * stays as it is (reverse vector mode reads it once per lane); then G
     * becomes dB0. */
    double *q = __capsule_blas_matrix_copy(order, m, n, t->b, pb);
    cblas_dtrmm(order, side, uplo, transa, diag, m, n, 1.0, t->a, pk, q, pb);
    dalpha = frobenius(order, m, n, db, ldb, q, pb);
    __capsule_blas_scratch_free(q);
    cblas_dtrmm(order, side, uplo, flip(transa), diag, m, n, alpha, t->a, pk,
                db, ldb);
  }
  __capsule_blas_scratch_free(t->b);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t);
  return dalpha;
}

/* dB = alpha op(A) dB0 + alpha op(dA) B0 + dalpha op(A) B0 on the left (the
 * products the other way round on the right), dA on the triangle the
 * routine reads. */
void __capsule_blas_dtrmm_tan(int order, int dorder, int side, int dside,
                              int uplo, int duplo, int transa, int dtransa,
                              int diag, int ddiag, int m, int dm, int n, int dn,
                              double alpha, double dalpha, const double *a,
                              const double *da, int lda, int dlda, double *b,
                              double *db, int ldb, int dldb) {
  if (m <= 0 || n <= 0)
    return;
  int pb = packed_ld(order, m, n);
  /* p = op(dA) B0, q = op(A) B0. */
  double *p =
      triangle_times(order, side, uplo, transa, diag, m, n, da, lda, b, ldb);
  double *q = __capsule_blas_matrix_copy(order, m, n, b, ldb);
  cblas_dtrmm(order, side, uplo, transa, diag, m, n, 1.0, a, lda, q, pb);
  cblas_dtrmm(order, side, uplo, transa, diag, m, n, alpha, a, lda, db, ldb);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      *at(order, db, ldb, i, j) +=
          alpha * *at(order, p, pb, i, j) + dalpha * *at(order, q, pb, i, j);
  __capsule_blas_scratch_free(q);
  __capsule_blas_scratch_free(p);
  cblas_dtrmm(order, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

/*--- dsyrk: C = alpha op(A) op(A)^T + beta C, one triangle of C -------------*/

/* With M = op(A) and G the adjoint of C on the triangle written (zero
 * elsewhere): dM = alpha (G + G^T) M, dalpha = <G, M M^T>, dbeta =
 * <G, C0>, and the triangle's adjoint becomes beta G; the other triangle
 * is not written, so its adjoint passes through. */
struct syrk_tape {
  double *a, *c;
};

void *__capsule_blas_dsyrk_aug(int order, int dorder, int uplo, int duplo,
                               int trans, int dtrans, int n, int dn, int k,
                               int dk, double alpha, const double *a,
                               double *da, int lda, int dlda, double beta,
                               double *c, double *dc, int ldc, int dldc) {
  int ar = trans == NoTrans ? n : k, ac = trans == NoTrans ? k : n;
  struct syrk_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, ar, ac, a, lda);
  t->c = beta != 0 ? __capsule_blas_matrix_copy(order, n, n, c, ldc) : NULL;
  cblas_dsyrk(order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
  return t;
}

two_adjoints __capsule_blas_dsyrk_grad(int order, int dorder, int uplo,
                                       int duplo, int trans, int dtrans, int n,
                                       int dn, int k, int dk, double alpha,
                                       const double *a, double *da, int lda,
                                       int dlda, double beta, double *c,
                                       double *dc, int ldc, int dldc,
                                       void *tape) {
  struct syrk_tape *t = tape;
  int ar = trans == NoTrans ? n : k, ac = trans == NoTrans ? k : n;
  int pa = packed_ld(order, ar, ac), pn = packed_ld(order, n, n);
  two_adjoints g = {0, 0};
  if (n > 0) {
    long nn = (long)n * n;
    double *s = __capsule_blas_scratch_alloc(sizeof(double) * nn);
    double *p = __capsule_blas_scratch_alloc(sizeof(double) * nn);
    memset(s, 0, sizeof(double) * nn);
    memset(p, 0, sizeof(double) * nn);
    if (k > 0)
      cblas_dsyrk(order, uplo, trans, n, k, 1.0, t->a, pa, 0.0, p, pn);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (in_triangle(uplo, NonUnit, i, j)) {
          double gij = *at(order, dc, ldc, i, j);
          g.dalpha += gij * *at(order, p, pn, i, j);
          if (beta != 0)
            g.dbeta += gij * *at(order, t->c, pn, i, j);
          *at(order, s, pn, i, j) += gij;
          *at(order, s, pn, j, i) += gij;
          *at(order, dc, ldc, i, j) = beta * gij;
        }
    if (k > 0) {
      if (trans == NoTrans)
        cblas_dgemm(order, NoTrans, NoTrans, n, k, n, alpha, s, pn, t->a, pa,
                    1.0, da, lda);
      else
        cblas_dgemm(order, NoTrans, NoTrans, k, n, n, alpha, t->a, pa, s, pn,
                    1.0, da, lda);
    }
    __capsule_blas_scratch_free(p);
    __capsule_blas_scratch_free(s);
  }
  __capsule_blas_scratch_free(t->c);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t);
  return g;
}

void __capsule_blas_dsyrk_tan(int order, int dorder, int uplo, int duplo,
                              int trans, int dtrans, int n, int dn, int k,
                              int dk, double alpha, double dalpha,
                              const double *a, const double *da, int lda,
                              int dlda, double beta, double dbeta, double *c,
                              double *dc, int ldc, int dldc) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (in_triangle(uplo, NonUnit, i, j)) {
        double *d = at(order, dc, ldc, i, j);
        *d = beta * *d + (beta != 0 ? dbeta * *at(order, c, ldc, i, j) : 0);
      }
  if (n > 0 && k > 0) {
    cblas_dsyr2k(order, uplo, trans, n, k, alpha, da, lda, a, lda, 1.0, dc,
                 ldc);
    cblas_dsyrk(order, uplo, trans, n, k, dalpha, a, lda, 1.0, dc, ldc);
  }
  cblas_dsyrk(order, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

/*--- dsymm: C = alpha A B + beta C (side Left) or alpha B A + beta C ------*/

/* A symmetric, one triangle stored. With P = A B (B A on the right) and G
 * the adjoint of C: dB = alpha A G (G A), the full adjoint of A is M =
 * alpha G B^T (alpha B^T G), of which a stored entry off the diagonal gets
 * both M(i, j) and M(j, i); dalpha = <G, P>, dbeta = <G, C0>, and C's
 * adjoint becomes beta G. */
struct symm_tape {
  double *a, *b, *c;
};

void *__capsule_blas_dsymm_aug(int order, int dorder, int side, int dside,
                               int uplo, int duplo, int m, int dm, int n,
                               int dn, double alpha, const double *a,
                               double *da, int lda, int dlda, const double *b,
                               double *db, int ldb, int dldb, double beta,
                               double *c, double *dc, int ldc, int dldc) {
  int k = side == Left ? m : n;
  struct symm_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, k, k, a, lda);
  t->b = __capsule_blas_matrix_copy(order, m, n, b, ldb);
  t->c = beta != 0 ? __capsule_blas_matrix_copy(order, m, n, c, ldc) : NULL;
  cblas_dsymm(order, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
  return t;
}

two_adjoints __capsule_blas_dsymm_grad(
    int order, int dorder, int side, int dside, int uplo, int duplo, int m,
    int dm, int n, int dn, double alpha, const double *a, double *da, int lda,
    int dlda, const double *b, double *db, int ldb, int dldb, double beta,
    double *c, double *dc, int ldc, int dldc, void *tape) {
  struct symm_tape *t = tape;
  int k = side == Left ? m : n;
  int pk = packed_ld(order, k, k), pb = packed_ld(order, m, n);
  two_adjoints g = {0, 0};
  if (m > 0 && n > 0) {
    double *p = __capsule_blas_scratch_alloc(sizeof(double) * m * n);
    cblas_dsymm(order, side, uplo, m, n, 1.0, t->a, pk, t->b, pb, 0.0, p, pb);
    g.dalpha = frobenius(order, m, n, dc, ldc, p, pb);
    if (beta != 0)
      g.dbeta = frobenius(order, m, n, dc, ldc, t->c, pb);
    __capsule_blas_scratch_free(p);
    double *full = __capsule_blas_scratch_alloc(sizeof(double) * k * k);
    if (side == Left)
      cblas_dgemm(order, NoTrans, Trans, k, k, n, alpha, dc, ldc, t->b, pb, 0.0,
                  full, pk);
    else
      cblas_dgemm(order, Trans, NoTrans, k, k, m, alpha, t->b, pb, dc, ldc, 0.0,
                  full, pk);
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < k; ++j)
        if (in_triangle(uplo, NonUnit, i, j))
          *at(order, da, lda, i, j) +=
              *at(order, full, pk, i, j) +
              (i != j ? *at(order, full, pk, j, i) : 0);
    __capsule_blas_scratch_free(full);
    cblas_dsymm(order, side, uplo, m, n, alpha, t->a, pk, dc, ldc, 1.0, db,
                ldb);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        *at(order, dc, ldc, i, j) *= beta;
  }
  __capsule_blas_scratch_free(t->c);
  __capsule_blas_scratch_free(t->b);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t);
  return g;
}

/* dC = alpha A dB + alpha dA B + dalpha A B + beta dC0 + dbeta C0 (the
 * products the other way round on the right), dA on the stored triangle. */
void __capsule_blas_dsymm_tan(int order, int dorder, int side, int dside,
                              int uplo, int duplo, int m, int dm, int n, int dn,
                              double alpha, double dalpha, const double *a,
                              const double *da, int lda, int dlda,
                              const double *b, const double *db, int ldb,
                              int dldb, double beta, double dbeta, double *c,
                              double *dc, int ldc, int dldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double *d = at(order, dc, ldc, i, j);
      *d = beta * *d + (beta != 0 ? dbeta * *at(order, c, ldc, i, j) : 0);
    }
  if (m > 0 && n > 0) {
    cblas_dsymm(order, side, uplo, m, n, alpha, a, lda, db, ldb, 1.0, dc, ldc);
    cblas_dsymm(order, side, uplo, m, n, alpha, da, lda, b, ldb, 1.0, dc, ldc);
    cblas_dsymm(order, side, uplo, m, n, dalpha, a, lda, b, ldb, 1.0, dc, ldc);
  }
  cblas_dsymm(order, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

/*--- dsyr2k: C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C -----------*/

/* One triangle of C written. With M = op(A), N = op(B) and G the adjoint of
 * C on the triangle (zero elsewhere), S = G + G^T: dM = alpha S N, dN =
 * alpha S M, dalpha = <G, M N^T + N M^T>, dbeta = <G, C0>, and the
 * triangle's adjoint becomes beta G; the other triangle's passes through. */
struct syr2k_tape {
  double *a, *b, *c;
};

void *__capsule_blas_dsyr2k_aug(int order, int dorder, int uplo, int duplo,
                                int trans, int dtrans, int n, int dn, int k,
                                int dk, double alpha, const double *a,
                                double *da, int lda, int dlda, const double *b,
                                double *db, int ldb, int dldb, double beta,
                                double *c, double *dc, int ldc, int dldc) {
  int ar = trans == NoTrans ? n : k, ac = trans == NoTrans ? k : n;
  struct syr2k_tape *t = __capsule_blas_scratch_alloc(sizeof *t);
  t->a = __capsule_blas_matrix_copy(order, ar, ac, a, lda);
  t->b = __capsule_blas_matrix_copy(order, ar, ac, b, ldb);
  t->c = beta != 0 ? __capsule_blas_matrix_copy(order, n, n, c, ldc) : NULL;
  cblas_dsyr2k(order, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  return t;
}

two_adjoints __capsule_blas_dsyr2k_grad(
    int order, int dorder, int uplo, int duplo, int trans, int dtrans, int n,
    int dn, int k, int dk, double alpha, const double *a, double *da, int lda,
    int dlda, const double *b, double *db, int ldb, int dldb, double beta,
    double *c, double *dc, int ldc, int dldc, void *tape) {
  struct syr2k_tape *t = tape;
  int ar = trans == NoTrans ? n : k, ac = trans == NoTrans ? k : n;
  int pa = packed_ld(order, ar, ac), pn = packed_ld(order, n, n);
  two_adjoints g = {0, 0};
  if (n > 0) {
    long nn = (long)n * n;
    double *s = __capsule_blas_scratch_alloc(sizeof(double) * nn);
    double *p = __capsule_blas_scratch_alloc(sizeof(double) * nn);
    memset(s, 0, sizeof(double) * nn);
    memset(p, 0, sizeof(double) * nn);
    if (k > 0)
      cblas_dsyr2k(order, uplo, trans, n, k, 1.0, t->a, pa, t->b, pa, 0.0, p,
                   pn);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (in_triangle(uplo, NonUnit, i, j)) {
          double gij = *at(order, dc, ldc, i, j);
          g.dalpha += gij * *at(order, p, pn, i, j);
          if (beta != 0)
            g.dbeta += gij * *at(order, t->c, pn, i, j);
          *at(order, s, pn, i, j) += gij;
          *at(order, s, pn, j, i) += gij;
          *at(order, dc, ldc, i, j) = beta * gij;
        }
    if (k > 0) {
      /* dA += alpha S N (or its transpose, (N^T S) = B S for op = T), and
       * dB likewise with M. */
      if (trans == NoTrans) {
        cblas_dgemm(order, NoTrans, NoTrans, n, k, n, alpha, s, pn, t->b, pa,
                    1.0, da, lda);
        cblas_dgemm(order, NoTrans, NoTrans, n, k, n, alpha, s, pn, t->a, pa,
                    1.0, db, ldb);
      } else {
        cblas_dgemm(order, NoTrans, NoTrans, k, n, n, alpha, t->b, pa, s, pn,
                    1.0, da, lda);
        cblas_dgemm(order, NoTrans, NoTrans, k, n, n, alpha, t->a, pa, s, pn,
                    1.0, db, ldb);
      }
    }
    __capsule_blas_scratch_free(p);
    __capsule_blas_scratch_free(s);
  }
  __capsule_blas_scratch_free(t->c);
  __capsule_blas_scratch_free(t->b);
  __capsule_blas_scratch_free(t->a);
  __capsule_blas_scratch_free(t);
  return g;
}

void __capsule_blas_dsyr2k_tan(int order, int dorder, int uplo, int duplo,
                               int trans, int dtrans, int n, int dn, int k,
                               int dk, double alpha, double dalpha,
                               const double *a, const double *da, int lda,
                               int dlda, const double *b, const double *db,
                               int ldb, int dldb, double beta, double dbeta,
                               double *c, double *dc, int ldc, int dldc) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (in_triangle(uplo, NonUnit, i, j)) {
        double *d = at(order, dc, ldc, i, j);
        *d = beta * *d + (beta != 0 ? dbeta * *at(order, c, ldc, i, j) : 0);
      }
  if (n > 0 && k > 0) {
    cblas_dsyr2k(order, uplo, trans, n, k, alpha, da, lda, b, ldb, 1.0, dc,
                 ldc);
    cblas_dsyr2k(order, uplo, trans, n, k, alpha, a, lda, db, ldb, 1.0, dc,
                 ldc);
    cblas_dsyr2k(order, uplo, trans, n, k, dalpha, a, lda, b, ldb, 1.0, dc,
                 ldc);
  }
  cblas_dsyr2k(order, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
