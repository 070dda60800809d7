/*===- ode.c - GradBench ode: gradient of an RK4 solution's last element --===*
 *
 * GradBench's ode task (evals/ode/README.md, after cmpad's an_ode), written
 * from its description: integrate
 *
 *   y_0' = x_0,   y_i' = x_i y_{i-1}  (0 < i < n),   y(0) = 0,
 *
 * to tf = 2 by s steps of RK4 (ode_objective.inc), and compute the gradient
 * of the last element y_{n-1}(tf) with respect to all of x (reverse mode;
 * y is an output buffer marked dupnoneed, its shadow seeded with e_{n-1},
 * as in GradBench's Enzyme tool).
 *
 * Size: n=1000, s=1, the first input GradBench's eval sends (its defaults
 * are n in {1000, 10000, 100000} and s in {1, 10, 100}, sent in order of
 * n*s); x uniform in [0, 1), as GradBench draws it, from the benchmark LCG
 * with a fixed seed.
 *
 * At that size the gradient is exactly zero: each of the four stages of a
 * step moves the front of the chain y_i' = x_i y_{i-1} one index on, so s
 * steps only reach y_0..y_{4s-1}, and y_{n-1}(tf) = 0 for every x whenever
 * 4 s < n, which is the case for all of GradBench's default inputs. The
 * work does not depend on the values, so the timing is that of the general
 * case, but a check of this gradient alone would compare zeros with zeros.
 * The check, before anything is timed, therefore has three parts:
 *   1. the timed gradient at n=8, s=2 (where 4 s >= n and every component
 *      is nonzero), every component against complex step, relative
 *      tolerance 1e-9;
 *   2. at n=1000, s=1, the same reverse pass seeded with a random vector w
 *      instead of e_{n-1} (the gradient of w . y(tf)) against complex step
 *      for x_0..x_3 (the nonzero ones), the last and four random
 *      components, tolerance 1e-9; the complex instance must reproduce the
 *      primal y(tf) bit for bit;
 *   3. at n=1000, s=1, the timed gradient, every component, against complex
 *      step (all zeros: it must be zero and finite everywhere).
 * gradbench_run makes the check and exits with status 1, no timings, if any
 * part fails.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

/* void ode_primal(...) and its complex instance ode_primal_cs(...). */
#define BENCH_BODY "gradbench/ode_objective.inc"
#include "../bench_instantiate.h"

typedef struct ode_ctx {
  long n, s;
  double *x, *dx;   /* parameters and their adjoint (the gradient) */
  double *yf, *dyf; /* y(tf) and its shadow: the seed of the reverse pass */
  const double *w;  /* weights of the checked functional w . y(tf) */
  double complex *cx, *cyf; /* complex copies, only for the check */
} ode_ctx;

static void ode_setup(ode_ctx *c, long n, long s, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->n = bench_opaque(n);
  c->s = bench_opaque(s);
  c->x = bench_alloc(n);
  c->dx = bench_alloc(n);
  c->yf = bench_alloc(n);
  c->dyf = bench_alloc(n);
  c->w = NULL;
  c->cx = bench_alloc_complex(n);
  c->cyf = bench_alloc_complex(n);
  for (long i = 0; i < n; i++) {
    c->x[i] = bench_uniform(&r);
    c->cx[i] = c->x[i];
  }
}

static void ode_free(ode_ctx *c) {
  free(c->x);
  free(c->dx);
  free(c->yf);
  free(c->dyf);
  free(c->cx);
  free(c->cyf);
}

static void ode_primal_run(void *p) {
  ode_ctx *c = p;
  ode_primal(c->n, c->x, c->s, c->yf);
  bench_sink = c->yf[c->n - 1];
}

/* dx = (d y(tf) / d x)^T dyf: zero the gradient (the marker accumulates
 * into it), then one reverse pass from the seed the caller put in dyf (the
 * pass consumes it: ode_primal overwrites yf, so its shadow comes back
 * zero). */
static void ode_pullback(ode_ctx *c) {
  memset(c->dx, 0, sizeof(double) * (size_t)c->n);
  __enzyme_autodiff((void *)ode_primal,
                    enzyme_const, c->n,
                    enzyme_dup, c->x, c->dx,
                    enzyme_const, c->s,
                    enzyme_dupnoneed, c->yf, c->dyf);
}

/* What GradBench asks for: the gradient of y_{n-1}(tf). */
static void ode_gradient(void *p) {
  ode_ctx *c = p;
  memset(c->dyf, 0, sizeof(double) * (size_t)c->n);
  c->dyf[c->n - 1] = 1.0;
  ode_pullback(c);
}

/* The functional checked: w . y(tf), or y_{n-1}(tf) when w is NULL. */
static double ode_eval(void *p) {
  ode_ctx *c = p;
  ode_primal(c->n, c->x, c->s, c->yf);
  if (!c->w)
    return c->yf[c->n - 1];
  double v = 0;
  for (long i = 0; i < c->n; i++)
    v += c->w[i] * c->yf[i];
  return v;
}

static double complex ode_eval_cs(void *p) {
  ode_ctx *c = p;
  ode_primal_cs(c->n, c->cx, c->s, c->cyf);
  if (!c->w)
    return c->cyf[c->n - 1];
  double complex v = 0;
  for (long i = 0; i < c->n; i++)
    v += c->w[i] * c->cyf[i];
  return v;
}

/* dx[idx[0..m)] (after a pullback) against complex step of ode_eval. */
static int ode_compare(ode_ctx *c, const char *label, const long *idx, int m,
                       double tol) {
  bench_sample *s = malloc(sizeof(bench_sample) * (size_t)m);
  for (int j = 0; j < m; j++) {
    long i = idx[j];
    s[j].array = "x";
    s[j].index = i;
    s[j].ad = c->dx[i];
    s[j].ref = bench_complex_step(ode_eval_cs, c, &c->cx[i]);
    s[j].fd = bench_central_diff(ode_eval, c, &c->x[i],
                                 bench_rel_step(c->x[i], 1e-6));
  }
  int fails = bench_verify(label, s, m, tol);
  free(s);
  return fails;
}

/* Part 1: the timed gradient where it is not zero (n=8, s=2), every
 * component. */
static int ode_verify_small(void) {
  enum { N = 8, S = 2 };
  ode_ctx c;
  long idx[N];
  ode_setup(&c, N, S, 0x0de50002ULL);
  ode_gradient(&c);
  for (int i = 0; i < N; i++)
    idx[i] = i;
  int fails = ode_compare(&c, "ode n=8,s=2: d y_{n-1}(tf) / dx", idx, N, 1e-9);
  ode_free(&c);
  return fails;
}

/* Part 2: the reverse pass from a random seed w at the timed size. */
static int ode_verify_vjp(ode_ctx *c) {
  enum { FRONT = 8, EXTRA = 4 };
  const char *label = "ode n=1000,s=1: d (w . y(tf)) / dx";
  long idx[FRONT + EXTRA + 2];
  bench_rng r = bench_rng_seed(0x5eed0de0ULL);
  double *w = bench_alloc(c->n);
  int m = 0, fails = 0;

  for (long i = 0; i < c->n; i++)
    w[i] = bench_normal(&r);
  memcpy(c->dyf, w, sizeof(double) * (size_t)c->n);
  ode_pullback(c);
  c->w = w;

  /* The complex instance must follow the primal's path exactly. */
  ode_primal(c->n, c->x, c->s, c->yf);
  ode_primal_cs(c->n, c->cx, c->s, c->cyf);
  for (long i = 0; i < c->n; i++)
    if (creal(c->cyf[i]) != c->yf[i]) {
      printf("verify ode: the complex instance gives y_%ld(tf) = %.17g, the "
             "primal %.17g   <-- FAIL\n", i, creal(c->cyf[i]), c->yf[i]);
      fails++;
      break;
    }

  /* x_0..x_{4s-1} are the components s RK4 steps reach (nonzero; the
   * first FRONT of them); the rest are zero: the last and random ones check
   * that they are. */
  for (long i = 0; i < FRONT && i < 4 * c->s && i < c->n; i++)
    idx[m++] = i;
  long more[EXTRA + 2];
  int k = bench_pick(&r, c->n, more, EXTRA);
  for (int j = 1; j < k; j++) /* more[0] is 0, already in */
    idx[m++] = more[j];
  fails += ode_compare(c, label, idx, m, 1e-9);
  c->w = NULL;
  free(w);
  return fails;
}

/* Part 3: the timed gradient at the timed size, every component. */
static int ode_verify_full(ode_ctx *c) {
  int fails = 0;
  double maxabs = 0;
  ode_gradient(c);
  for (long i = 0; i < c->n; i++) {
    double ref = bench_complex_step(ode_eval_cs, c, &c->cx[i]);
    if (!isfinite(c->dx[i]) || c->dx[i] != ref) {
      if (fails++ < 8)
        printf("    x[%ld]: reverse mode %.17g, complex step %.17g   <-- "
               "FAIL\n", i, c->dx[i], ref);
    }
    if (fabs(ref) > maxabs)
      maxabs = fabs(ref);
  }
  printf("verify ode n=%ld,s=%ld: d y_{n-1}(tf) / dx, all %ld components "
         "against complex step (largest %.3g): %s\n",
         c->n, c->s, c->n, maxabs, fails ? "FAILED" : "passed");
  return fails;
}

/* The check gradbench_run makes before timing. Returns the failures. */
static int ode_verify(void *p) {
  ode_ctx *c = p;
  return ode_verify_small() + ode_verify_vjp(c) + ode_verify_full(c);
}

int main(void) {
  ode_ctx c;
  ode_setup(&c, 1000, 1, 0x0de50001ULL);
  int status = gradbench_run("ode", "n=1000,s=1", "gradient", ode_verify,
                             ode_primal_run, ode_gradient, &c);
  ode_free(&c);
  return status;
}
