/*===- gmm_bench.h - GMM benchmark: objective, inputs, gradient, check ----===*
 * Shared by gmm.c and scaling.c.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_BENCH_GMM_BENCH_H
#define CAPSULE_BENCH_GMM_BENCH_H

#include "bench_util.h"

/* ADBench log_gamma_distrib: log of the multivariate gamma function. Only
 * ever called on constants. */
static double gmm_log_gamma_distrib(double a, double p) {
  double out = 0.25 * p * (p - 1) * log(BENCH_PI);
  for (int j = 1; j <= p; j++)
    out = out + lgamma(a + 0.5 * (1 - j));
  return out;
}

/* double gmm_objective(...) and double complex gmm_objective_cs(...). */
#define BENCH_BODY "gmm_objective.inc"
#include "bench_instantiate.h"

typedef struct gmm_ctx {
  int d, k, n;
  double gamma;
  int m;
  long n_alphas, n_means, n_icf;
  double *alphas, *means, *icf, *x;
  double *d_alphas, *d_means, *d_icf; /* shadows */
  /* complex copies, only for the complex-step check */
  double complex *c_alphas, *c_means, *c_icf;
} gmm_ctx;

/* Inputs distributed as in ADBench's gmm data generator (alphas, icf and x
 * standard normal, means uniform in [0,1), gamma = 1, m = 0), drawn from the
 * benchmark LCG. */
static void gmm_setup(gmm_ctx *c, int d, int k, int n, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->d = (int)bench_opaque(d);
  c->k = (int)bench_opaque(k);
  c->n = (int)bench_opaque(n);
  c->gamma = 1.0;
  c->m = (int)bench_opaque(0);
  c->n_alphas = k;
  c->n_means = (long)k * d;
  c->n_icf = (long)k * (d * (d + 1) / 2);
  c->alphas = bench_alloc(c->n_alphas);
  c->means = bench_alloc(c->n_means);
  c->icf = bench_alloc(c->n_icf);
  c->x = bench_alloc((long)n * d);
  c->d_alphas = bench_alloc(c->n_alphas);
  c->d_means = bench_alloc(c->n_means);
  c->d_icf = bench_alloc(c->n_icf);
  for (long i = 0; i < c->n_alphas; i++)
    c->alphas[i] = bench_normal(&r);
  for (long i = 0; i < c->n_means; i++)
    c->means[i] = bench_uniform(&r);
  for (long i = 0; i < c->n_icf; i++)
    c->icf[i] = bench_normal(&r);
  for (long i = 0; i < (long)n * d; i++)
    c->x[i] = bench_normal(&r);
  c->c_alphas = c->c_means = c->c_icf = NULL;
}

static void gmm_free(gmm_ctx *c) {
  free(c->alphas);
  free(c->means);
  free(c->icf);
  free(c->x);
  free(c->d_alphas);
  free(c->d_means);
  free(c->d_icf);
  free(c->c_alphas);
  free(c->c_means);
  free(c->c_icf);
}

static double gmm_eval(void *p) {
  gmm_ctx *c = p;
  return gmm_objective(c->d, c->k, c->n, c->alphas, c->means, c->icf, c->x,
                       c->gamma, c->m);
}

static inline void gmm_primal(void *p) { bench_sink = gmm_eval(p); }

/* One gradient: zero the shadows, then one reverse-mode call. */
static void gmm_gradient(void *p) {
  gmm_ctx *c = p;
  memset(c->d_alphas, 0, sizeof(double) * (size_t)c->n_alphas);
  memset(c->d_means, 0, sizeof(double) * (size_t)c->n_means);
  memset(c->d_icf, 0, sizeof(double) * (size_t)c->n_icf);
  BENCH_AUTODIFF((void *)gmm_objective,
                 BENCH_CONST, c->d,
                 BENCH_CONST, c->k,
                 BENCH_CONST, c->n,
                 BENCH_DUP, c->alphas, c->d_alphas,
                 BENCH_DUP, c->means, c->d_means,
                 BENCH_DUP, c->icf, c->d_icf,
                 BENCH_CONST, c->x,
                 BENCH_CONST, c->gamma,
                 BENCH_CONST, c->m);
}

static double complex gmm_eval_cs(void *p) {
  gmm_ctx *c = p;
  return gmm_objective_cs(c->d, c->k, c->n, c->c_alphas, c->c_means, c->c_icf,
                          c->x, c->gamma, c->m);
}

/* One gradient call, then 4 components of each dup array (first, last, two
 * random) against the complex-step reference. Returns the failure count. */
static int gmm_verify(gmm_ctx *c, const char *label) {
  enum { PER = 4, MAXS = 3 * PER };
  bench_sample s[MAXS];
  int ns = 0;
  bench_rng r = bench_rng_seed(0x5eed0001);

  gmm_gradient(c);
  c->c_alphas = bench_alloc_complex(c->n_alphas);
  c->c_means = bench_alloc_complex(c->n_means);
  c->c_icf = bench_alloc_complex(c->n_icf);
  for (long i = 0; i < c->n_alphas; i++)
    c->c_alphas[i] = c->alphas[i];
  for (long i = 0; i < c->n_means; i++)
    c->c_means[i] = c->means[i];
  for (long i = 0; i < c->n_icf; i++)
    c->c_icf[i] = c->icf[i];

  double f = gmm_eval(c);
  double complex fc = gmm_eval_cs(c);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));

  struct {
    const char *name;
    long n;
    double *x, *dx;
    double complex *cx;
  } arrays[3] = {{"alphas", c->n_alphas, c->alphas, c->d_alphas, c->c_alphas},
                 {"means", c->n_means, c->means, c->d_means, c->c_means},
                 {"icf", c->n_icf, c->icf, c->d_icf, c->c_icf}};
  for (int a = 0; a < 3; a++) {
    long idx[PER];
    int m = bench_pick(&r, arrays[a].n, idx, PER - 2);
    for (int j = 0; j < m; j++, ns++) {
      long i = idx[j];
      s[ns].array = arrays[a].name;
      s[ns].index = i;
      s[ns].ad = arrays[a].dx[i];
      s[ns].ref = bench_complex_step(gmm_eval_cs, c, &arrays[a].cx[i]);
      s[ns].fd = bench_central_diff(gmm_eval, c, &arrays[a].x[i],
                                     bench_rel_step(arrays[a].x[i], 1e-6));
    }
  }
  int fails = bench_verify(label, s, ns, 1e-5);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }
  return fails;
}

#endif /* CAPSULE_BENCH_GMM_BENCH_H */
