/*===- mlp_bench.h - MLP benchmark: objective, inputs, gradient, check ----===*/
#ifndef CAPSULE_BENCH_MLP_BENCH_H
#define CAPSULE_BENCH_MLP_BENCH_H

#include "bench_util.h"

/* double mlp_objective(...) and its complex instance. */
#define BENCH_BODY "mlp_objective.inc"
#include "bench_instantiate.h"

typedef struct mlp_ctx {
  int i, h, o, m;
  long n_params, n_work;
  double *params, *x, *y, *work;
  double *d_params, *d_work;                /* shadows */
  double complex *c_params, *c_work;        /* complex-step only */
} mlp_ctx;

/* Weights normal / sqrt(fan-in) (Xavier-like, so tanh does not saturate),
 * biases and inputs normal, targets uniform in [-1, 1). */
static void mlp_setup(mlp_ctx *c, int i, int h, int o, int m, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->i = (int)bench_opaque(i);
  c->h = (int)bench_opaque(h);
  c->o = (int)bench_opaque(o);
  c->m = (int)bench_opaque(m);
  c->n_params = (long)h * i + h + (long)h * h + h + (long)o * h + o;
  c->n_work = i + 2L * h + o;
  c->params = bench_alloc(c->n_params);
  c->x = bench_alloc((long)m * i);
  c->y = bench_alloc((long)m * o);
  c->work = bench_alloc(c->n_work);
  c->d_params = bench_alloc(c->n_params);
  c->d_work = bench_alloc(c->n_work);
  long layer_in[3] = {i, h, h}, layer_out[3] = {h, h, o}, k = 0;
  for (int l = 0; l < 3; l++) {
    double scale = 1.0 / sqrt((double)layer_in[l]);
    for (long e = 0; e < layer_in[l] * layer_out[l]; e++)
      c->params[k++] = scale * bench_normal(&r);
    for (long e = 0; e < layer_out[l]; e++)
      c->params[k++] = 0.1 * bench_normal(&r);
  }
  for (long e = 0; e < (long)m * i; e++)
    c->x[e] = bench_normal(&r);
  for (long e = 0; e < (long)m * o; e++)
    c->y[e] = 2 * bench_uniform(&r) - 1;
  c->c_params = c->c_work = NULL;
}

static void mlp_free(mlp_ctx *c) {
  free(c->params);
  free(c->x);
  free(c->y);
  free(c->work);
  free(c->d_params);
  free(c->d_work);
  free(c->c_params);
  free(c->c_work);
}

static double mlp_eval(void *p) {
  mlp_ctx *c = p;
  return mlp_objective(c->i, c->h, c->o, c->m, c->params, c->x, c->y,
                       c->work);
}

static inline void mlp_primal(void *p) { bench_sink = mlp_eval(p); }

static void mlp_gradient(void *p) {
  mlp_ctx *c = p;
  memset(c->d_params, 0, sizeof(double) * (size_t)c->n_params);
  memset(c->d_work, 0, sizeof(double) * (size_t)c->n_work);
  __capsule_autodiff_v((void *)mlp_objective,
                       capsule_const, c->i,
                       capsule_const, c->h,
                       capsule_const, c->o,
                       capsule_const, c->m,
                       capsule_dup, c->params, c->d_params,
                       capsule_const, c->x,
                       capsule_const, c->y,
                       capsule_dup, c->work, c->d_work);
}

static double complex mlp_eval_cs(void *p) {
  mlp_ctx *c = p;
  return mlp_objective_cs(c->i, c->h, c->o, c->m, c->c_params, c->x, c->y,
                          c->c_work);
}

/* One gradient call; 8 components of params (first, last, six random)
 * against the complex-step reference; d work must be zero. */
static int mlp_verify(mlp_ctx *c, const char *label) {
  enum { PER = 8 };
  bench_sample s[PER];
  bench_rng r = bench_rng_seed(0x5eed0005);

  mlp_gradient(c);
  c->c_params = bench_alloc_complex(c->n_params);
  c->c_work = bench_alloc_complex(c->n_work);
  for (long e = 0; e < c->n_params; e++)
    c->c_params[e] = c->params[e];

  double f = mlp_eval(c);
  double complex fc = mlp_eval_cs(c);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));
  long idx[PER];
  int ns = bench_pick(&r, c->n_params, idx, PER - 2);
  double maxref = 0;
  for (int j = 0; j < ns; j++) {
    long e = idx[j];
    s[j].array = "params";
    s[j].index = e;
    s[j].ad = c->d_params[e];
    s[j].ref = bench_complex_step(mlp_eval_cs, c, &c->c_params[e]);
    s[j].fd = bench_central_diff(mlp_eval, c, &c->params[e],
                                 bench_rel_step(c->params[e], 1e-6));
    if (fabs(s[j].ref) > maxref)
      maxref = fabs(s[j].ref);
  }
  int fails = bench_verify(label, s, ns, 1e-5);
  fails += bench_verify_zero(label, "work", c->d_work, c->n_work, maxref,
                             1e-5);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }
  return fails;
}

#endif /* CAPSULE_BENCH_MLP_BENCH_H */
