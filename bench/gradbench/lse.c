/*===- lse.c - GradBench lse: LogSumExp, gradient -------------------------===*
 *
 * GradBench's "lse" task: LSE(x) = a + log sum_i exp(x_i - a) with
 * a = max_i x_i, computed from a maximum and a sum as the task asks
 * (lse_objective.inc), and its gradient with respect to x (one dup array;
 * n constant), which is softmax(x).
 *
 * Size: n=2500, GradBench's first standard input (its eval runs n = 2500,
 * 5000, ..., 1280000). x is uniform in [0, 1), as GradBench draws it, from
 * the benchmark LCG with a fixed seed.
 *
 * Check, before anything is timed: x[0], x[n-1], the maximal component
 * (where the derivative through the maximum lands) and six random
 * components of the reverse-mode gradient against complex step (the
 * objective compiled a second time over double complex), relative tolerance
 * 1e-9; the complex instance must reproduce the primal bit for bit, and the
 * whole gradient must sum to 1 (to 1e-12), as softmax does. gradbench_run
 * makes the check and exits with status 1, no timings, if it fails.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

/* double lse_objective(...) and double complex lse_objective_cs(...). */
#define BENCH_BODY "gradbench/lse_objective.inc"
#include "../bench_instantiate.h"

typedef struct lse_ctx {
  long n;
  double *x, *dx;      /* input and its shadow */
  double complex *cx;  /* complex copy, only for the check */
} lse_ctx;

static void lse_setup(lse_ctx *c, long n, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->n = bench_opaque(n);
  c->x = bench_alloc(n);
  c->dx = bench_alloc(n);
  c->cx = bench_alloc_complex(n);
  for (long i = 0; i < n; i++)
    c->x[i] = bench_uniform(&r);
}

static void lse_free(lse_ctx *c) {
  free(c->x);
  free(c->dx);
  free(c->cx);
}

static double lse_eval(void *p) {
  lse_ctx *c = p;
  return lse_objective(c->n, c->x);
}

static double complex lse_eval_cs(void *p) {
  lse_ctx *c = p;
  return lse_objective_cs(c->n, c->cx);
}

static void lse_primal(void *p) { bench_sink = lse_eval(p); }

/* One gradient: zero the shadow (the marker accumulates into it), then one
 * reverse-mode call seeded with 1. */
static void lse_gradient(void *p) {
  lse_ctx *c = p;
  memset(c->dx, 0, sizeof(double) * (size_t)c->n);
  __enzyme_autodiff((void *)lse_objective,
                    enzyme_const, c->n,
                    enzyme_dup, c->x, c->dx);
}

/* The index of the first maximal element: the one the objective selects. */
static long lse_argmax(long n, const double *x) {
  long k = 0;
  for (long i = 1; i < n; i++)
    if (x[k] < x[i])
      k = i;
  return k;
}

/* The check gradbench_run makes before timing. Returns the number of
 * failures. */
static int lse_verify(void *p) {
  enum { EXTRA = 6, MAXS = EXTRA + 3 };
  lse_ctx *c = p;
  const char *label = "lse";
  bench_sample s[MAXS];
  long idx[MAXS];
  bench_rng r = bench_rng_seed(0x5eed15e0);

  lse_gradient(c);
  for (long i = 0; i < c->n; i++)
    c->cx[i] = c->x[i];
  double f = lse_eval(c);
  double complex fc = lse_eval_cs(c);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));

  int ns = bench_pick(&r, c->n, idx, EXTRA);
  idx[ns++] = lse_argmax(c->n, c->x);
  for (int k = 0; k < ns; k++) {
    long i = idx[k];
    s[k].array = "x";
    s[k].index = i;
    s[k].ad = c->dx[i];
    s[k].ref = bench_complex_step(lse_eval_cs, c, &c->cx[i]);
    s[k].fd = bench_central_diff(lse_eval, c, &c->x[i],
                                 bench_rel_step(c->x[i], 1e-6));
  }
  int fails = bench_verify(label, s, ns, 1e-9);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }

  /* Every component, not only the sampled ones: softmax sums to 1. */
  double total = 0;
  for (long i = 0; i < c->n; i++)
    total += c->dx[i];
  int bad = !(fabs(total - 1.0) <= 1e-12);
  printf("verify %s: the gradient sums to 1 %+.1e%s\n", label, total - 1.0,
         bad ? "   <-- FAIL" : "");
  return fails + bad;
}

int main(void) {
  lse_ctx c;
  lse_setup(&c, 2500, 0x15e00001ULL);
  int status = gradbench_run("lse", "n=2500", "gradient", lse_verify,
                             lse_primal, lse_gradient, &c);
  lse_free(&c);
  return status;
}
