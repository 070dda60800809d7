/*===- rk4_bench.h - RK4 / Lorenz-96 benchmark: objective, gradient, check ===*
 * Shared by rk4.c and scaling.c.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_BENCH_RK4_BENCH_H
#define CAPSULE_BENCH_RK4_BENCH_H

#include "bench_util.h"

/* double rk4_objective(...) and its complex instance. */
#define BENCH_BODY "rk4_objective.inc"
#include "bench_instantiate.h"

typedef struct rk4_ctx {
  long n, steps;
  double dt;
  double *x0, *F, *work;
  double *d_x0, *d_F, *d_work; /* shadows */
  double complex *c_x0, *c_F, *c_work; /* complex-step check only */
} rk4_ctx;

/* F = 8, x0 = F + uniform(-0.5, 0.5) from the LCG: chaotic regime. */
static void rk4_setup(rk4_ctx *c, long n, long steps, double dt,
                      uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->n = bench_opaque(n);
  c->steps = bench_opaque(steps);
  c->dt = dt;
  c->x0 = bench_alloc(n);
  c->F = bench_alloc(1);
  c->work = bench_alloc(6 * n);
  c->d_x0 = bench_alloc(n);
  c->d_F = bench_alloc(1);
  c->d_work = bench_alloc(6 * n);
  c->F[0] = 8.0;
  for (long i = 0; i < n; i++)
    c->x0[i] = c->F[0] + (bench_uniform(&r) - 0.5);
  c->c_x0 = c->c_F = c->c_work = NULL;
}

static void rk4_free(rk4_ctx *c) {
  free(c->x0);
  free(c->F);
  free(c->work);
  free(c->d_x0);
  free(c->d_F);
  free(c->d_work);
  free(c->c_x0);
  free(c->c_F);
  free(c->c_work);
}

static double rk4_eval(void *p) {
  rk4_ctx *c = p;
  return rk4_objective(c->x0, c->F, c->work, c->n, c->steps, c->dt);
}

static inline void rk4_primal(void *p) { bench_sink = rk4_eval(p); }

static void rk4_gradient(void *p) {
  rk4_ctx *c = p;
  memset(c->d_x0, 0, sizeof(double) * (size_t)c->n);
  c->d_F[0] = 0.0;
  memset(c->d_work, 0, sizeof(double) * (size_t)(6 * c->n));
  __capsule_autodiff_v((void *)rk4_objective,
                       capsule_dup, c->x0, c->d_x0,
                       capsule_dup, c->F, c->d_F,
                       capsule_dup, c->work, c->d_work,
                       capsule_const, c->n,
                       capsule_const, c->steps,
                       capsule_const, c->dt);
}

static double complex rk4_eval_cs(void *p) {
  rk4_ctx *c = p;
  return rk4_objective_cs(c->c_x0, c->c_F, c->c_work, c->n, c->steps, c->dt);
}

/* One gradient call; every component of x0 and F against the complex-step
 * reference (n is small); d work must be zero. */
static int rk4_verify(rk4_ctx *c, const char *label) {
  bench_sample *s = malloc(sizeof(bench_sample) * (size_t)(c->n + 1));
  double maxref = 0;

  rk4_gradient(c);
  c->c_x0 = bench_alloc_complex(c->n);
  c->c_F = bench_alloc_complex(1);
  c->c_work = bench_alloc_complex(6 * c->n);
  for (long i = 0; i < c->n; i++)
    c->c_x0[i] = c->x0[i];
  c->c_F[0] = c->F[0];

  double f = rk4_eval(c);
  double complex fc = rk4_eval_cs(c);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));

  for (long i = 0; i <= c->n; i++) {
    int isF = i == c->n;
    s[i].array = isF ? "F" : "x0";
    s[i].index = isF ? 0 : i;
    s[i].ad = isF ? c->d_F[0] : c->d_x0[i];
    s[i].ref =
        bench_complex_step(rk4_eval_cs, c, isF ? &c->c_F[0] : &c->c_x0[i]);
    s[i].fd =
        bench_central_diff(rk4_eval, c, isF ? &c->F[0] : &c->x0[i], 1e-10);
    if (fabs(s[i].ref) > maxref)
      maxref = fabs(s[i].ref);
  }
  int fails = bench_verify(label, s, (int)c->n + 1, 1e-5);
  fails += bench_verify_zero(label, "work", c->d_work, 6 * c->n, maxref, 1e-5);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }
  free(s);
  return fails;
}

#endif /* CAPSULE_BENCH_RK4_BENCH_H */
