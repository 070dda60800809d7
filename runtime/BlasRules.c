/*===- BlasRules.c - Derivative rules of the CBLAS routines ---------------===*
 *
 * The rules the pass attaches to cblas_ddot, daxpy, dscal, dnrm2, dcopy,
 * dgemv and dgemm when a program calls them (lib/Support/BlasRules.cpp), in
 * the custom-rule convention (docs/user-guide.md, "Custom derivatives"):
 * every argument that is not floating point is followed by its shadow; the
 * augmented forward rule runs the routine and returns a tape (heap copies
 * of the inputs the gradient needs, since the program may overwrite them
 * before the reverse sweep) and the result; the gradient rule adds into the
 * shadows and returns the adjoints of the scalars; the tangent rule takes
 * every argument followed by its tangent. Each calls BLAS for the adjoints
 * and tangents, so a program's BLAS does the work in every mode.
 *
 * The prototypes are written here rather than taken from cblas.h, which
 * the runtime does not need to build: the pass attaches these rules only
 * to cblas functions whose integer and enumeration parameters are 32-bit,
 * as these definitions assume. A program that calls cblas links its BLAS;
 * this file is only pulled out of the archive by the rules' calls.
 * Complex conjugation does not apply: CblasConjTrans is CblasTrans.
 * With beta == 0, BLAS does not read y (or C): its adjoint of beta is 0.
 *===----------------------------------------------------------------------===*/
#include <stdlib.h>
#include <string.h>

enum { RowMajor = 101, ColMajor = 102, NoTrans = 111 };

double cblas_ddot(int n, const double *x, int incx, const double *y, int incy);
void cblas_daxpy(int n, double alpha, const double *x, int incx, double *y,
                 int incy);
void cblas_dscal(int n, double alpha, double *x, int incx);
double cblas_dnrm2(int n, const double *x, int incx);
void cblas_dcopy(int n, const double *x, int incx, double *y, int incy);
void cblas_dgemv(int order, int trans, int m, int n, double alpha,
                 const double *a, int lda, const double *x, int incx,
                 double beta, double *y, int incy);
void cblas_dger(int order, int m, int n, double alpha, const double *x,
                int incx, const double *y, int incy, double *a, int lda);
void cblas_dgemm(int order, int transa, int transb, int m, int n, int k,
                 double alpha, const double *a, int lda, const double *b,
                 int ldb, double beta, double *c, int ldc);

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

/* The rules' copies come and go in last-in first-out order, once per call:
 * a few freed blocks are kept per thread for the next calls, so a gradient
 * in a loop neither calls malloc nor faults fresh pages in (large blocks
 * would come from mmap each time). The kept blocks live as long as the
 * thread. */
enum { KeptBlocks = 16 };
typedef struct {
  size_t capacity;
  size_t pad; /* keeps the data 16-byte aligned */
} block_header;
static __thread block_header *kept[KeptBlocks];
static __thread int kept_count;

static void *scratch_alloc(size_t bytes) {
  for (int i = kept_count - 1; i >= 0; --i)
    if (kept[i]->capacity >= bytes) {
      block_header *h = kept[i];
      kept[i] = kept[--kept_count];
      return h + 1;
    }
  block_header *h = malloc(sizeof *h + (bytes ? bytes : 1));
  if (!h)
    abort();
  h->capacity = bytes;
  return h + 1;
}

static void scratch_free(void *p) {
  if (!p)
    return;
  block_header *h = (block_header *)p - 1;
  if (kept_count < KeptBlocks)
    kept[kept_count++] = h;
  else
    free(h);
}

/* Element i of a BLAS vector with stride inc (negative strides run from
 * the end, as BLAS reads them). */
static double *element(double *x, int n, int inc, int i) {
  return x + (inc > 0 ? (long)i * inc : (long)(n - 1 - i) * -inc);
}

static void scale_vector(int n, double s, double *x, int inc) {
  for (int i = 0; i < n; ++i)
    *element(x, n, inc, i) *= s;
}

static double *vector_copy(int n, const double *x, int inc) {
  double *copy = scratch_alloc(sizeof(double) * (n > 0 ? n : 1));
  if (n > 0)
    cblas_dcopy(n, x, inc, copy, 1);
  return copy;
}

/* Element (i, j) of a matrix stored in order with leading dimension ld. */
static double *at(int order, double *a, int ld, int i, int j) {
  return order == RowMajor ? a + (long)i * ld + j : a + i + (long)j * ld;
}

/* The leading dimension of a packed rows x cols matrix in order. */
static int packed_ld(int order, int rows, int cols) {
  int ld = order == RowMajor ? cols : rows;
  return ld > 0 ? ld : 1;
}

static double *matrix_copy(int order, int rows, int cols, const double *a,
                           int ld) {
  double *copy = scratch_alloc(sizeof(double) *
                               ((long)rows * cols > 0 ? (long)rows * cols : 1));
  /* Line by line: rows of a row-major matrix, columns of a column-major
   * one. */
  int lines = order == RowMajor ? rows : cols;
  int length = order == RowMajor ? cols : rows;
  for (int l = 0; l < lines; ++l)
    memcpy(copy + (long)l * length, a + (long)l * ld, sizeof(double) * length);
  return copy;
}

/* sum over a rows x cols matrix of a(i, j) * b(i, j). */
static double frobenius(int order, int rows, int cols, const double *a, int lda,
                        const double *b, int ldb) {
  double sum = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      sum += *at(order, (double *)a, lda, i, j) *
             *at(order, (double *)b, ldb, i, j);
  return sum;
}

static int flip(int trans) { return trans == NoTrans ? 112 : NoTrans; }

/*--- ddot: x . y ---------------------------------------------------------*/

tape_and_double __capsule_blas_ddot_aug(int n, int dn, const double *x,
                                        double *dx, int incx, int dincx,
                                        const double *y, double *dy, int incy,
                                        int dincy) {
  double *tape = scratch_alloc(sizeof(double) * 2 * (n > 0 ? n : 1));
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
  scratch_free(tape);
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
  double *tape = vector_copy(n, x, incx);
  cblas_daxpy(n, alpha, x, incx, y, incy);
  return tape;
}

double __capsule_blas_daxpy_grad(int n, int dn, double alpha, const double *x,
                                 double *dx, int incx, int dincx, double *y,
                                 double *dy, int incy, int dincy, void *tape) {
  double dalpha = n > 0 ? cblas_ddot(n, dy, incy, tape, 1) : 0;
  if (n > 0)
    cblas_daxpy(n, alpha, dy, incy, dx, incx);
  scratch_free(tape);
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

void *__capsule_blas_dscal_aug(int n, int dn, double alpha, double *x,
                               double *dx, int incx, int dincx) {
  double *tape = vector_copy(n, x, incx);
  cblas_dscal(n, alpha, x, incx);
  return tape;
}

double __capsule_blas_dscal_grad(int n, int dn, double alpha, double *x,
                                 double *dx, int incx, int dincx, void *tape) {
  double dalpha = n > 0 ? cblas_ddot(n, dx, incx, tape, 1) : 0;
  scale_vector(n, alpha, dx, incx);
  scratch_free(tape);
  return dalpha;
}

void __capsule_blas_dscal_tan(int n, int dn, double alpha, double dalpha,
                              double *x, double *dx, int incx, int dincx) {
  scale_vector(n, alpha, dx, incx);
  cblas_daxpy(n, dalpha, x, incx, dx, incx);
  cblas_dscal(n, alpha, x, incx);
}

/*--- dnrm2: |x| -----------------------------------------------------------*/

tape_and_double __capsule_blas_dnrm2_aug(int n, int dn, const double *x,
                                         double *dx, int incx, int dincx) {
  tape_and_double r = {vector_copy(n, x, incx), cblas_dnrm2(n, x, incx)};
  return r;
}

/* The derivative x / |x|; at x = 0 (not differentiable) it is taken as 0. */
void __capsule_blas_dnrm2_grad(int n, int dn, const double *x, double *dx,
                               int incx, int dincx, double dr, void *tape) {
  double norm = n > 0 ? cblas_dnrm2(n, tape, 1) : 0;
  if (norm > 0)
    cblas_daxpy(n, dr / norm, tape, 1, dx, incx);
  scratch_free(tape);
}

dual __capsule_blas_dnrm2_tan(int n, int dn, const double *x, const double *dx,
                              int incx, int dincx) {
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
  struct gemv_tape *t = scratch_alloc(sizeof *t);
  t->a = matrix_copy(order, m, n, a, lda);
  t->x = vector_copy(lenx, x, incx);
  t->y = vector_copy(leny, y, incy);
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
    double *z = scratch_alloc(sizeof(double) * leny);
    cblas_dgemv(order, trans, m, n, 1.0, t->a, pld, t->x, 1, 0.0, z, 1);
    g.dalpha = cblas_ddot(leny, dy, incy, z, 1);
    scratch_free(z);
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
  scratch_free(t->a);
  scratch_free(t->x);
  scratch_free(t->y);
  scratch_free(t);
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
  struct gemm_tape *t = scratch_alloc(sizeof *t);
  int ar = transa == NoTrans ? m : k, ac = transa == NoTrans ? k : m;
  int br = transb == NoTrans ? k : n, bc = transb == NoTrans ? n : k;
  int pa = packed_ld(order, ar, ac), pb = packed_ld(order, br, bc);
  int pc = packed_ld(order, m, n);
  t->a = matrix_copy(order, ar, ac, a, lda);
  t->b = matrix_copy(order, br, bc, b, ldb);
  t->c = beta != 0 ? matrix_copy(order, m, n, c, ldc) : NULL;
  t->p = scratch_alloc(sizeof(double) * ((long)m * n > 0 ? (long)m * n : 1));
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
  scratch_free(t->a);
  scratch_free(t->b);
  scratch_free(t->c);
  scratch_free(t->p);
  scratch_free(t);
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
