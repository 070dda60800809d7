/*===- det.c - GradBench det: determinant by minors, gradient -------------===*
 *
 * GradBench's "det" task (after cmpad's det_by_minor): the determinant of
 * an ell x ell matrix A (row major) by recursive expansion by minors, the
 * minors kept as linked lists of rows and columns that each level of the
 * recursion unlinks and relinks (det_objective.inc), and its gradient with
 * respect to A (one dup array; ell constant), which is the cofactor matrix.
 * About ell! products: a scalar, recursive, branchy code.
 *
 * Size: ell=5, GradBench's first standard input (its eval runs ell = 5, 6,
 * ..., 11). A is uniform in [0, 1), as GradBench draws it, from the
 * benchmark LCG with a fixed seed.
 *
 * Check, before anything is timed: all 25 components of the reverse-mode
 * gradient (first, last and every other) against complex step (the
 * objective compiled a second time over double complex), relative
 * tolerance 1e-9; the complex instance must reproduce the primal bit for
 * bit; and sum_j A[i][j] dA[i][j] must be det A for every row i (Laplace's
 * expansion along row i, to 1e-12 of its terms). gradbench_run makes the
 * check and exits with status 1, no timings, if it fails.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

/* double det_objective(...) and double complex det_objective_cs(...). */
#define BENCH_BODY "gradbench/det_objective.inc"
#include "../bench_instantiate.h"

typedef struct det_ctx {
  long ell;
  double *A, *dA;      /* matrix and its shadow */
  double complex *cA;  /* complex copy, only for the check */
} det_ctx;

static void det_setup(det_ctx *c, long ell, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->ell = bench_opaque(ell);
  c->A = bench_alloc(ell * ell);
  c->dA = bench_alloc(ell * ell);
  c->cA = bench_alloc_complex(ell * ell);
  for (long i = 0; i < ell * ell; i++)
    c->A[i] = bench_uniform(&r);
}

static void det_free(det_ctx *c) {
  free(c->A);
  free(c->dA);
  free(c->cA);
}

static double det_eval(void *p) {
  det_ctx *c = p;
  return det_objective(c->ell, c->A);
}

static double complex det_eval_cs(void *p) {
  det_ctx *c = p;
  return det_objective_cs(c->ell, c->cA);
}

static void det_primal(void *p) { bench_sink = det_eval(p); }

/* One gradient: zero the shadow (the marker accumulates into it), then one
 * reverse-mode call seeded with 1. */
static void det_gradient(void *p) {
  det_ctx *c = p;
  memset(c->dA, 0, sizeof(double) * (size_t)(c->ell * c->ell));
  __enzyme_autodiff((void *)det_objective,
                    enzyme_const, c->ell,
                    enzyme_dup, c->A, c->dA);
}

/* Laplace: row i of A dotted with row i of the cofactors is det A, for
 * every i. Returns the number of rows where it fails. */
static int det_verify_laplace(const det_ctx *c, double det) {
  int fails = 0;
  for (long i = 0; i < c->ell; i++) {
    bench_dot row = {c->ell, &c->A[i * c->ell], &c->dA[i * c->ell]};
    char name[32];
    snprintf(name, sizeof name, "det row %ld", i);
    fails += bench_verify_dot(name, "det A", det, "A[i,:] . dA[i,:]", &row,
                              1, 1e-12);
  }
  return fails;
}

/* The check gradbench_run makes before timing. Returns the number of
 * failures. */
static int det_verify(void *p) {
  det_ctx *c = p;
  const char *label = "det";
  long count = c->ell * c->ell;
  bench_sample *s = calloc((size_t)count, sizeof *s);
  if (!s)
    return 1;

  det_gradient(c);
  for (long i = 0; i < count; i++)
    c->cA[i] = c->A[i];
  double f = det_eval(c);
  double complex fc = det_eval_cs(c);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));

  /* Every component: there are only ell^2 = 25. */
  for (long i = 0; i < count; i++) {
    s[i].array = "A";
    s[i].index = i;
    s[i].ad = c->dA[i];
    s[i].ref = bench_complex_step(det_eval_cs, c, &c->cA[i]);
    s[i].fd = bench_central_diff(det_eval, c, &c->A[i],
                                 bench_rel_step(c->A[i], 1e-6));
  }
  int fails = bench_verify(label, s, (int)count, 1e-9);
  free(s);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }
  return fails + det_verify_laplace(c, f);
}

int main(void) {
  det_ctx c;
  det_setup(&c, 5, 0xde700001ULL);
  int status = gradbench_run("det", "ell=5", "gradient", det_verify,
                             det_primal, det_gradient, &c);
  det_free(&c);
  return status;
}
