/*===- rotation_bench.h - Rotation benchmark: objective, gradient, check --===*
 * Shared by rotation.c and scaling.c.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_BENCH_ROTATION_BENCH_H
#define CAPSULE_BENCH_ROTATION_BENCH_H

#include "bench_util.h"

/* floor(lg v) for v >= 1, integer code only. */
static inline long rotation_floor_lg(long v) {
  long r = -1;
  while (v > 0) {
    v >>= 1;
    r++;
  }
  return r;
}

/* Inner trip count of outer iteration i (1 <= i <= l), f3 = floor(3^phi):
 * m = 2^(floor(lg l) - floor(lg(1 + (1013 f3 i mod l)))). The exponent is in
 * [0, floor(lg l)] because 1 + (... mod l) <= l. */
static inline long rotation_m(long i, long l, long f3) {
  long r = (1013 * f3 * i) % l;
  return 1L << (rotation_floor_lg(l) - rotation_floor_lg(1 + r));
}

/* Total number of inner iterations (each one magsqr + rot1 + rot2). */
static inline long rotation_total_inner(long l, double phi) {
  long f3 = (long)floor(pow(3.0, phi)), t = 0;
  for (long i = 1; i <= l; i++)
    t += rotation_m(i, l, f3);
  return t;
}

/* double rotation_objective(...) and its complex instance. */
#define BENCH_BODY "rotation_objective.inc"
#include "bench_instantiate.h"

typedef struct rotation_ctx {
  long n, l;
  double phi;
  double *x0, *work;
  double *d_x0, *d_work; /* shadows */
  double complex *c_x0, *c_work; /* complex-step check only */
} rotation_ctx;

/* x0[k] = n - k, as in the paper. */
static void rotation_setup(rotation_ctx *c, long n, long l, double phi) {
  c->n = bench_opaque(n);
  c->l = bench_opaque(l);
  c->phi = phi;
  c->x0 = bench_alloc(n);
  c->work = bench_alloc(n);
  c->d_x0 = bench_alloc(n);
  c->d_work = bench_alloc(n);
  for (long k = 0; k < n; k++)
    c->x0[k] = (double)(n - k);
  c->c_x0 = c->c_work = NULL;
}

static void rotation_free(rotation_ctx *c) {
  free(c->x0);
  free(c->work);
  free(c->d_x0);
  free(c->d_work);
  free(c->c_x0);
  free(c->c_work);
}

static double rotation_eval(void *p) {
  rotation_ctx *c = p;
  return rotation_objective(c->x0, c->work, c->n, c->l, c->phi);
}

static void rotation_primal(void *p) { bench_sink = rotation_eval(p); }

static void rotation_gradient(void *p) {
  rotation_ctx *c = p;
  memset(c->d_x0, 0, sizeof(double) * (size_t)c->n);
  memset(c->d_work, 0, sizeof(double) * (size_t)c->n);
  __capsule_autodiff_v((void *)rotation_objective,
                       capsule_dup, c->x0, c->d_x0,
                       capsule_dup, c->work, c->d_work,
                       capsule_const, c->n,
                       capsule_const, c->l,
                       capsule_const, c->phi);
}

static double complex rotation_eval_cs(void *p) {
  rotation_ctx *c = p;
  return rotation_objective_cs(c->c_x0, c->c_work, c->n, c->l, c->phi);
}

/* One gradient call; x0[0], x0[1], x0[n-1] and 3 random components against
 * the complex-step reference; d work must be zero. */
static int rotation_verify(rotation_ctx *c, const char *label) {
  enum { PER = 6 };
  bench_sample s[PER];
  long idx[PER];
  bench_rng r = bench_rng_seed(0x5eed0002);

  rotation_gradient(c);
  c->c_x0 = bench_alloc_complex(c->n);
  c->c_work = bench_alloc_complex(c->n);
  for (long k = 0; k < c->n; k++)
    c->c_x0[k] = c->x0[k];

  double f = rotation_eval(c);
  double complex fc = rotation_eval_cs(c);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));

  int m = bench_pick(&r, c->n, idx, PER - 3);
  idx[m++] = 1;
  double maxref = 0;
  for (int j = 0; j < m; j++) {
    long i = idx[j];
    s[j].array = "x0";
    s[j].index = i;
    s[j].ad = c->d_x0[i];
    s[j].ref = bench_complex_step(rotation_eval_cs, c, &c->c_x0[i]);
    s[j].fd = bench_central_diff(rotation_eval, c, &c->x0[i], 1e-4);
    if (fabs(s[j].ref) > maxref)
      maxref = fabs(s[j].ref);
  }
  int fails = bench_verify(label, s, m, 1e-5);
  fails += bench_verify_zero(label, "work", c->d_work, c->n, maxref, 1e-5);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }
  return fails;
}

#endif /* CAPSULE_BENCH_ROTATION_BENCH_H */
