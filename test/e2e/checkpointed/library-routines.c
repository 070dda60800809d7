// BLAS routines and qsort inside checkpointed gradients and interruptible
// runs. A simulation whose every step updates its state in place through
// CBLAS and the Fortran interface: dgemv into a temporary, daxpy, dscal and
// dcopy on strided views, dswap and drot of two columns, dspmv, dtpmv and
// dspr with packed matrices, dger, dsyr, dsyrk and dsyr2k accumulating into
// matrices, dgemm with beta != 0 on the previous C, dtrsv and dtrsm solving
// and dtrmv and dtrmm multiplying in place, dsymv and dsymm, ddot, dnrm2
// and dasum reading, and a qsort of numbers in place. The state lives in
// the caller's memory (the input itself), in the root's stack arrays and in
// a heap block. The schedule re-executes steps from capsules, so every
// routine's writes must be undone from the journal (runtime/blas/Steps.c,
// runtime/libc/Sort.c): a capsule resumed twice must give the same result,
// and the checkpointed gradient, with short stages and every strategy, must
// equal the plain one (itself against central differences). Forward mode
// over such a checkpointed gradient: nesting/blas-second-derivatives.c.
// At -O2 the time loop, whose inner loops are unrolled, would be one atomic
// step; CAPSULE_ATOMIC_LOOPS=0 keeps its yield point. The -O3 build keeps it
// atomic, so no capsule falls inside the loop: it checks the gradients
// only. The -O0 build declares and passes the hidden lengths of the Fortran
// routines' character arguments (gfortran's convention).
// RUN: %clang -O0 -g -DSTRLEN=size_t %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas
// RUN: env CAPSULE_ATOMIC_LOOPS=0 %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas
// RUN: %clang -O3 %capsule_cflags %s -o %t3 %capsule_ldflags -lopenblas
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_LEAF_STEPS=40 %t0
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_LEAF_STEPS=25 %t2
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_LEAF_STEPS=30 CAPSULE_STRATEGY=treeverse CAPSULE_SPLIT=binomial CAPSULE_SNAPSHOTS=3 %t2
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_LEAF_STEPS=30 CAPSULE_STRATEGY=binary %t2
// RUN: env OPENBLAS_NUM_THREADS=1 %t2
// RUN: env OPENBLAS_NUM_THREADS=1 %t3 gradient-only
// More than a few stages, so that rollbacks happen:
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_STATS=1 CAPSULE_LEAF_STEPS=30 %t2 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: checkpointed gradient of simulate: {{[0-9]+}} primal steps, {{[^;]*}}; {{[1-9][0-9]+}} stages
// A call is charged the work it does (its multiply-adds), so that the
// default schedule splits a run of large products into several stages
// (charged one step a call, 300 matrix-vector products of order 64 fit in
// one default stage with all the rules' copies of the matrix):
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_STATS=1 %t3 gradient-only 2>&1 | FileCheck %s --check-prefix=CHARGED
// CHARGED: checkpointed gradient of products: {{[1-9][0-9][0-9][0-9][0-9][0-9][0-9]+}} primal steps, {{[^;]*}}; {{([2-9]|[1-9][0-9]+)}} stages
#include <capsule/capsule.h>
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "fortran_blas.h"

#define N 4
#define LD 5 /* padded leading dimension */
#define STEPS 24
/* p: the matrix A (N x N), then the state x (N), updated in place. */
#define NA (N * N)
#define NP (NA + N)

/* Stable triangular factors built from A: unit-ish diagonals. */
static void triangles(const double *a, double *lower, double *upper) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      lower[i + j * LD] = i == j ? 1.5 + 0.1 * a[i] : i > j ? 0.1 * a[j] : 0;
      upper[i * LD + j] = i == j ? 1.2 + 0.05 * a[j] : j > i ? 0.1 * a[i] : 0;
    }
}

static int ascending(const void *p, const void *q) {
  double u = *(const double *)p, v = *(const double *)q;
  return (u > v) - (u < v);
}

static double simulate(double *p) {
  double *a = p, *x = p + NA;
  double y[N], z[N] = {0}, w[2 * N], lower[N * LD], upper[N * LD];
  double m[N * LD] = {0}, s[N * N] = {0}, b[N * 2];
  double s2[N * N] = {0}, bb[N * 2] = {0};
  double *c = calloc(N * LD, sizeof *c);
  const int n = N, ld = LD, one = 1;
  const double half = 0.5, tenth = 0.1;
  triangles(a, lower, upper);
  for (int i = 0; i < N * 2; ++i)
    b[i] = 0.3 * i - 1;
  double sw[N * 2], sy[N * N] = {0}, sp[N] = {0}, tp[N] = {1, 1, 1, 1};
  double packed[N * (N + 1) / 2], pk[N * (N + 1) / 2] = {0};
  for (int i = 0; i < N * (N + 1) / 2; ++i)
    packed[i] = 0.2 * a[i % NA] + 0.05 * i;
  for (int i = 0; i < N * 2; ++i)
    sw[i] = 0.1 * i - 0.35;
  for (int t = 0; t < STEPS; ++t) {
    /* y = 0.4 A x, squashed; x += y. */
    cblas_dgemv(CblasRowMajor, CblasNoTrans, N, N, 0.4, a, N, x, 1, 0.0, y, 1);
    for (int i = 0; i < N; ++i)
      y[i] = y[i] / (1 + y[i] * y[i]);
    cblas_daxpy(N, 1.0, y, 1, x, 1);
    /* m += 0.1 x y^T; c = 0.5 m A^T + 0.5 c (Fortran, column-major). */
    cblas_dger(CblasColMajor, N, N, 0.1, x, 1, y, 1, m, LD);
    dgemm_("N", "t", &n, &n, &n, &half, m, &ld, a, &n, &half, c,
           &ld LENGTHS(2));
    /* Solves in place: x = L^-1 x (Fortran), b = U^-1 b. */
    dtrsv_("L", "N", "n", &n, lower, &ld, x, &one LENGTHS(3));
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans,
                CblasNonUnit, N, 2, 1.0, upper, LD, b, 2);
    cblas_dtrmm(CblasRowMajor, CblasRight, CblasUpper, CblasNoTrans, CblasUnit,
                N, 2, 0.9, upper, LD, b, 2);
    /* z = 0.2 sym(c) x + 0.9 z; s = 0.8 s + 0.1 x x^T (lower). */
    cblas_dsymv(CblasColMajor, CblasUpper, N, 0.2, c, LD, x, 1, 0.9, z, 1);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, N, 1, 0.1, x, N, 0.8,
                s, N);
    /* s2 = 0.9 s2 + 0.05 (x y^T + y x^T) (upper); bb = 0.1 s2 b + 0.5 bb. */
    cblas_dsyr2k(CblasColMajor, CblasUpper, CblasNoTrans, N, 1, 0.05, x, N, y,
                 N, 0.9, s2, N);
    cblas_dsymm(CblasRowMajor, CblasLeft, CblasLower, N, 2, 0.1, s2, N, b, 2,
                0.5, bb, 2);
    /* b[:, 1] += 0.1 z (Fortran, stride 2); x += 0.1 b[:, 0] backwards. */
    daxpy_(&n, &tenth, z, &one, b + 1, (const int[]){2});
    cblas_daxpy(N, 0.1, b, 2, x, -1);
    /* w (stride 2) = z, scaled backwards; z -= 0.05 w. */
    cblas_dcopy(N, z, 1, w, 2);
    cblas_dtrmv(CblasColMajor, CblasLower, CblasTrans, CblasUnit, N, lower, LD,
                w, 2);
    cblas_dscal(N, 0.7, w, -2);
    cblas_daxpy(N, -0.05, w, 2, z, 1);
    /* sw's two columns trade places (only dswap writes most of sw). */
    cblas_dswap(N, sw, 2, sw + 1, 2);
    cblas_drot(N, sw, 2, sw + 1, 2, 0.8, 0.6 + 0.01 * x[0]);
    /* sy += 0.01 y y^T on its lower triangle (only dsyr writes sy). */
    cblas_dsyr(CblasRowMajor, CblasLower, N, 0.01, y, 1, sy, N);
    /* sp = 0.1 P x + 0.9 sp, P symmetric packed (only dspmv writes sp). */
    cblas_dspmv(CblasColMajor, CblasUpper, N, 0.1, packed, x, 1, 0.9, sp, 1);
    /* tp = 0.5 L tp, L unit lower triangular packed (only dtpmv writes tp). */
    cblas_dtpmv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, N, packed,
                tp, 1);
    cblas_dscal(1, 0.5, tp + t % N, 1);
    /* pk += 0.01 z z^T, packed (only dspr writes pk). */
    cblas_dspr(CblasRowMajor, CblasUpper, N, 0.01, z, 1, pk);
    sw[(2 * t) % (2 * N)] += 0.01 * x[t % N];
    /* The largest of z drives y next step: z sorted in place. */
    qsort(z, N, sizeof *z, ascending);
    x[t % N] += 0.05 * z[N - 1];
  }
  double r = cblas_ddot(N, x, 1, z, 1) + cblas_dnrm2(N * LD, c, 1) +
             cblas_ddot(N * 2, b, 1, b, 1) + cblas_dasum(N * 2, sw, 1) +
             sw[0] * sw[3] + cblas_ddot(N * N, sy, 1, sy, 1) +
             cblas_ddot(N, sp, 1, sp, 1) + cblas_ddot(N, tp, 1, x, 1) * 1e-3 +
             cblas_ddot(N * (N + 1) / 2, pk, 1, pk, 1);
  for (int i = 0; i < N; ++i)
    r += s[i + i * N] * (i + 1) + m[i * LD + N - 1 - i] +
         s2[i * N + i] * bb[2 * i + 1];
  free(c);
  return r;
}

CHECK_FD_OF(simulate)

#define M 64
#define PRODUCTS 300

/* Large products: x <- squash(A x / 64) + x, A += x y^T / 1e4. */
static double products(double *p) {
  static double a[M * M];
  double x[M], y[M];
  for (int i = 0; i < M * M; ++i)
    a[i] = p[i % NP] * ((i * 7) % 11 - 5) * 0.01;
  for (int i = 0; i < M; ++i)
    x[i] = p[i % NP];
  for (int t = 0; t < PRODUCTS; ++t) {
    cblas_dgemv(CblasRowMajor, CblasNoTrans, M, M, 1.0 / M, a, M, x, 1, 0.0,
                y, 1);
    for (int i = 0; i < M; ++i)
      x[i] += y[i] / (1 + y[i] * y[i]);
    cblas_dger(CblasRowMajor, M, M, 1e-4, x, 1, y, 1, a, M);
  }
  return cblas_ddot(M, x, 1, x, 1);
}

static void initial(double *p) {
  for (int i = 0; i < NP; ++i)
    p[i] = 0.5 * sin(1.3 * i + 0.2) + (i < NA && i % (N + 1) == 0 ? 0.4 : 0);
}

/* The checkpointed gradient against the plain one, and the state (which the
 * function updates in place) as the plain gradient leaves it. */
/* The default schedule over large products (a single stage if a call were
 * one step; CHARGED above): checkpointed against plain. */
static void check_products(void) {
  double p[NP], dp[NP] = {0}, q[NP], dq[NP] = {0};
  initial(p);
  memcpy(q, p, sizeof q);
  __capsule_autodiff((void *)products, p, dp);
  __capsule_autodiff_checkpointed((void *)products, q, dq);
  check_vec_cf("products checkpointed vs plain", dq, dp, NP);
}

static void check_checkpointed(void) {
  double p0[NP], p[NP], dp[NP] = {0}, q[NP], dq[NP] = {0};
  initial(p0);
  memcpy(p, p0, sizeof p);
  memcpy(q, p0, sizeof q);
  __capsule_autodiff((void *)simulate, p, dp);
  check_grad_fd("simulate plain", dp, simulate_fd, 0, p0, NP);
  __capsule_autodiff_checkpointed((void *)simulate, q, dq);
  check_vec_cf("simulate checkpointed vs plain", dq, dp, NP);
  check_vec_cf("simulate checkpointed state", q, p, NP);
}

/* The primal interrupted at several points and resumed twice from each
 * capsule: the second resume sees memory as the capsule found it only if
 * the routines' writes were undone. */
static void check_interrupted(void) {
  double p0[NP], p[NP];
  initial(p0);
  memcpy(p, p0, sizeof p);
  double want = simulate(p);
  memcpy(p, p0, sizeof p);
  uint64_t steps = __capsule_primops((void *)simulate, p);
  for (int part = 1; part < 8; ++part) {
    memcpy(p, p0, sizeof p);
    capsule_t *cap = __capsule_interrupt((void *)simulate, steps * part / 8, p);
    if (!cap) {
      check_close("simulate was interrupted", 0, 1, 0, 0);
      return;
    }
    double r1, r2;
    capsule_resume(cap, &r1);
    capsule_resume(cap, &r2);
    capsule_release(cap);
    check_cf("simulate resumed", r1, want);
    check_cf("simulate resumed again", r2, want);
  }
}

int main(int argc, char **argv) {
  check_checkpointed();
  check_products();
  if (argc < 2 || strcmp(argv[1], "gradient-only"))
    check_interrupted();
  return check_report();
}
