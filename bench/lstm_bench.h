/*===- lstm_bench.h - LSTM benchmark: objective, inputs, gradient, check --===*/
#ifndef CAPSULE_BENCH_LSTM_BENCH_H
#define CAPSULE_BENCH_LSTM_BENCH_H

#include "bench_util.h"

/* double lstm_objective(...) and its complex instance. */
#define BENCH_BODY "lstm_objective.inc"
#include "bench_instantiate.h"

typedef struct lstm_ctx {
  int l, c, b;
  long n_main, n_extra, n_state;
  double *main_params, *extra_params, *state, *state_work, *sequence;
  double *d_main, *d_extra, *d_state_work; /* shadows */
  double complex *c_main, *c_extra, *c_state_work; /* complex-step only */
} lstm_ctx;

/* As ADBench's data generator: parameters and state uniform in [0,1); the
 * sequence is c characters written as b bits each (ADBench encodes text; here
 * the character codes are LCG draws in [0, 2^b)). */
static void lstm_setup(lstm_ctx *x, int l, int c, int b, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  x->l = (int)bench_opaque(l);
  x->c = (int)bench_opaque(c);
  x->b = (int)bench_opaque(b);
  x->n_main = (long)l * 2 * 4 * b;
  x->n_extra = 3L * b;
  x->n_state = (long)l * 2 * b;
  x->main_params = bench_alloc(x->n_main);
  x->extra_params = bench_alloc(x->n_extra);
  x->state = bench_alloc(x->n_state);
  x->state_work = bench_alloc(x->n_state);
  x->sequence = bench_alloc((long)c * b);
  x->d_main = bench_alloc(x->n_main);
  x->d_extra = bench_alloc(x->n_extra);
  x->d_state_work = bench_alloc(x->n_state);
  for (long i = 0; i < x->n_main; i++)
    x->main_params[i] = bench_uniform(&r);
  for (long i = 0; i < x->n_extra; i++)
    x->extra_params[i] = bench_uniform(&r);
  for (long i = 0; i < x->n_state; i++)
    x->state[i] = bench_uniform(&r);
  for (long t = 0; t < c; t++) {
    long ch = bench_index(&r, 1L << b);
    for (int j = b - 1; j >= 0; j--) /* most significant bit first */
      x->sequence[t * b + (b - 1 - j)] = (double)((ch >> j) & 1);
  }
  x->c_main = x->c_extra = x->c_state_work = NULL;
}

static void lstm_free(lstm_ctx *x) {
  free(x->main_params);
  free(x->extra_params);
  free(x->state);
  free(x->state_work);
  free(x->sequence);
  free(x->d_main);
  free(x->d_extra);
  free(x->d_state_work);
  free(x->c_main);
  free(x->c_extra);
  free(x->c_state_work);
}

static double lstm_eval(void *p) {
  lstm_ctx *x = p;
  return lstm_objective(x->l, x->c, x->b, x->main_params, x->extra_params,
                        x->state, x->state_work, x->sequence);
}

static inline void lstm_primal(void *p) { bench_sink = lstm_eval(p); }

static void lstm_gradient(void *p) {
  lstm_ctx *x = p;
  memset(x->d_main, 0, sizeof(double) * (size_t)x->n_main);
  memset(x->d_extra, 0, sizeof(double) * (size_t)x->n_extra);
  memset(x->d_state_work, 0, sizeof(double) * (size_t)x->n_state);
  BENCH_AUTODIFF((void *)lstm_objective,
                 BENCH_CONST, x->l,
                 BENCH_CONST, x->c,
                 BENCH_CONST, x->b,
                 BENCH_DUP, x->main_params, x->d_main,
                 BENCH_DUP, x->extra_params, x->d_extra,
                 BENCH_CONST, x->state,
                 BENCH_DUP, x->state_work, x->d_state_work,
                 BENCH_CONST, x->sequence);
}

static double complex lstm_eval_cs(void *p) {
  lstm_ctx *x = p;
  return lstm_objective_cs(x->l, x->c, x->b, x->c_main, x->c_extra, x->state,
                           x->c_state_work, x->sequence);
}

/* One gradient call; 6 components of main_params and 4 of extra_params
 * against the complex-step reference; d state_work must be zero. */
static int lstm_verify(lstm_ctx *x, const char *label) {
  enum { MAXS = 10 };
  bench_sample s[MAXS];
  int ns = 0;
  bench_rng r = bench_rng_seed(0x5eed0003);

  lstm_gradient(x);
  x->c_main = bench_alloc_complex(x->n_main);
  x->c_extra = bench_alloc_complex(x->n_extra);
  x->c_state_work = bench_alloc_complex(x->n_state);
  for (long i = 0; i < x->n_main; i++)
    x->c_main[i] = x->main_params[i];
  for (long i = 0; i < x->n_extra; i++)
    x->c_extra[i] = x->extra_params[i];

  double f = lstm_eval(x);
  double complex fc = lstm_eval_cs(x);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));

  struct {
    const char *name;
    long n;
    int extra;
    double *v, *dv;
    double complex *cv;
  } arrays[2] = {
      {"main_params", x->n_main, 4, x->main_params, x->d_main, x->c_main},
      {"extra_params", x->n_extra, 2, x->extra_params, x->d_extra,
       x->c_extra}};
  double maxref = 0;
  for (int a = 0; a < 2; a++) {
    long idx[6];
    int m = bench_pick(&r, arrays[a].n, idx, arrays[a].extra);
    for (int j = 0; j < m; j++, ns++) {
      long i = idx[j];
      s[ns].array = arrays[a].name;
      s[ns].index = i;
      s[ns].ad = arrays[a].dv[i];
      s[ns].ref = bench_complex_step(lstm_eval_cs, x, &arrays[a].cv[i]);
      s[ns].fd = bench_central_diff(lstm_eval, x, &arrays[a].v[i],
                                    bench_rel_step(arrays[a].v[i], 1e-6));
      if (fabs(s[ns].ref) > maxref)
        maxref = fabs(s[ns].ref);
    }
  }
  int fails = bench_verify(label, s, ns, 1e-5);
  fails += bench_verify_zero(label, "state_work", x->d_state_work, x->n_state,
                             maxref, 1e-5);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }
  return fails;
}

#endif /* CAPSULE_BENCH_LSTM_BENCH_H */
