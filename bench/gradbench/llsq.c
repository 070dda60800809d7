/*===- llsq.c - GradBench llsq: linear least squares, gradient ------------===*
 *
 * GradBench's "llsq" task (after cmpad's llsq_obj): the least-squares misfit
 * of a polynomial with m coefficients x to the step function sign(t) on n
 * equally spaced points of [-1, 1] (llsq_objective.inc),
 *
 *   y(x) = 1/2 sum_i (sign(t_i) - sum_j x_j t_i^j)^2,  t_i = -1 + 2i/(n-1),
 *
 * and its gradient with respect to x (one dup array; n and m constant).
 *
 * Size: n=16, m=128, GradBench's first standard input (its eval runs every
 * n of 16, 32, ..., 16392 with m=128, smallest n*m first). x is uniform in
 * [0, 1), as GradBench draws it, from the benchmark LCG with a fixed seed.
 *
 * Check, before anything is timed: x[0], x[m-1] and six random components
 * of the reverse-mode gradient against complex step (the objective compiled
 * a second time over double complex), relative tolerance 1e-9, and the
 * complex instance must reproduce the primal bit for bit. gradbench_run
 * makes the check and exits with status 1, no timings, if it fails.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

/* double llsq_objective(...) and double complex llsq_objective_cs(...). */
#define BENCH_BODY "gradbench/llsq_objective.inc"
#include "../bench_instantiate.h"

typedef struct llsq_ctx {
  long n, m;
  double *x, *dx;      /* coefficients and their shadow */
  double complex *cx;  /* complex copy, only for the check */
} llsq_ctx;

static void llsq_setup(llsq_ctx *c, long n, long m, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->n = bench_opaque(n);
  c->m = bench_opaque(m);
  c->x = bench_alloc(m);
  c->dx = bench_alloc(m);
  c->cx = bench_alloc_complex(m);
  for (long j = 0; j < m; j++)
    c->x[j] = bench_uniform(&r);
}

static void llsq_free(llsq_ctx *c) {
  free(c->x);
  free(c->dx);
  free(c->cx);
}

static double llsq_eval(void *p) {
  llsq_ctx *c = p;
  return llsq_objective(c->n, c->m, c->x);
}

static double complex llsq_eval_cs(void *p) {
  llsq_ctx *c = p;
  return llsq_objective_cs(c->n, c->m, c->cx);
}

static void llsq_primal(void *p) { bench_sink = llsq_eval(p); }

/* One gradient: zero the shadow (the marker accumulates into it), then one
 * reverse-mode call seeded with 1. */
static void llsq_gradient(void *p) {
  llsq_ctx *c = p;
  memset(c->dx, 0, sizeof(double) * (size_t)c->m);
  __enzyme_autodiff((void *)llsq_objective,
                    enzyme_const, c->n,
                    enzyme_const, c->m,
                    enzyme_dup, c->x, c->dx);
}

/* The check gradbench_run makes before timing: one gradient, then x[0],
 * x[m-1] and six random components against complex step. Returns the
 * number of failures. */
static int llsq_verify(void *p) {
  enum { EXTRA = 6, MAXS = EXTRA + 2 };
  llsq_ctx *c = p;
  const char *label = "llsq";
  bench_sample s[MAXS];
  long idx[MAXS];
  bench_rng r = bench_rng_seed(0x5eed11a0);

  llsq_gradient(c);
  for (long j = 0; j < c->m; j++)
    c->cx[j] = c->x[j];
  double f = llsq_eval(c);
  double complex fc = llsq_eval_cs(c);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));

  int ns = bench_pick(&r, c->m, idx, EXTRA);
  for (int k = 0; k < ns; k++) {
    long j = idx[k];
    s[k].array = "x";
    s[k].index = j;
    s[k].ad = c->dx[j];
    s[k].ref = bench_complex_step(llsq_eval_cs, c, &c->cx[j]);
    s[k].fd = bench_central_diff(llsq_eval, c, &c->x[j],
                                 bench_rel_step(c->x[j], 1e-6));
  }
  int fails = bench_verify(label, s, ns, 1e-9);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }
  return fails;
}

int main(void) {
  llsq_ctx c;
  llsq_setup(&c, 16, 128, 0x11500001ULL);
  int status = gradbench_run("llsq", "n=16,m=128", "gradient", llsq_verify,
                             llsq_primal, llsq_gradient, &c);
  llsq_free(&c);
  return status;
}
