/*===- forward.c - Benchmark: one tangent against the primal --------------===*
 *
 * gmm, mlp, rk4 and lstm with the sizes of their own benchmarks; one
 * forward-mode call (__capsule_fwddiff) along a random direction in all
 * their differentiated inputs at once, timed against the primal; then one
 * vector-mode call of width 8 (eight directions at once), timed against the
 * one tangent. Each tangent is checked first against the reverse-mode
 * gradient, itself checked against complex step, dotted with the direction,
 * and each lane of the width-8 call against one tangent along its
 * direction. Exits non-zero, before any timing, if a check fails.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "gmm_bench.h"
#include "lstm_bench.h"
#include "mlp_bench.h"
#include "rk4_bench.h"

static double *random_direction(bench_rng *r, long n) {
  double *d = bench_alloc(n);
  for (long i = 0; i < n; i++)
    d[i] = bench_normal(r);
  return d;
}

/* Vector mode: LANES directions per input, lane k's n values at k * n. */
#define LANES 8
typedef struct lanes {
  double d[LANES];
} lanes;
lanes __capsule_fwddiff_lanes(void *fn, ...);

/* Lane k's directions of inputs of n values, copied to the one tangent's. */
static void copy_lane(double *one, const double *all, long n, int k) {
  memcpy(one, all + (long)k * n, sizeof(double) * (size_t)n);
}

/* Each lane of the width-LANES call against one tangent along its
 * directions (set_lane(ctx, k) copies them to the one tangent's). */
static int verify_lanes(const char *label, lanes got,
                        void (*set_lane)(void *, int),
                        double (*tangent)(void *), void *ctx) {
  double ones[LANES];
  for (int k = 0; k < LANES; k++) {
    set_lane(ctx, k);
    ones[k] = tangent(ctx);
  }
  double worst = bench_worst_rel_diff(got.d, ones, LANES, 1.0);
  int bad = !(worst <= 1e-12);
  printf("verify %s: width %d, each lane against one tangent along its "
         "directions, largest difference %.1e: %s\n",
         label, LANES, worst, bad ? "FAILED" : "passed");
  fflush(stdout);
  return bad;
}

static void report_lanes(const char *label, void (*tangent)(void *),
                         void (*lanes_fn)(void *), void *ctx) {
  bench_result r = bench_measure(tangent, lanes_fn, ctx);
  bench_print_pair(label, "tangent", "width 8", &r);
}

/* The tangent against the reverse-mode gradient dotted with the direction
 * (pairs of gradient and direction). */
static int verify_tangent(const char *label, double tangent,
                          const bench_dot *d, int count) {
  return bench_verify_dot(label, "tangent", tangent, "gradient . direction",
                          d, count, 1e-10);
}

static void report(const char *label, void (*primal)(void *),
                   void (*tangent)(void *), void *ctx) {
  bench_result r = bench_measure(primal, tangent, ctx);
  bench_print_as(label, "tangent", &r);
}

/*--- gmm -------------------------------------------------------------------*/

typedef struct gmm_fwd {
  gmm_ctx c; /* first: the primal takes a gmm_fwd as its gmm_ctx */
  double *t_alphas, *t_means, *t_icf;
  double *l_alphas, *l_means, *l_icf; /* LANES directions each */
} gmm_fwd;

static double gmm_tangent_value(gmm_fwd *g) {
  gmm_ctx *c = &g->c;
  return __capsule_fwddiff((void *)gmm_objective,
                           capsule_const, c->d,
                           capsule_const, c->k,
                           capsule_const, c->n,
                           capsule_dup, c->alphas, g->t_alphas,
                           capsule_dup, c->means, g->t_means,
                           capsule_dup, c->icf, g->t_icf,
                           capsule_const, c->x,
                           capsule_const, c->gamma,
                           capsule_const, c->m);
}

static void gmm_tangent(void *p) { bench_sink = gmm_tangent_value(p); }
static double gmm_tangent_of(void *p) { return gmm_tangent_value(p); }

static lanes gmm_lanes_value(gmm_fwd *g) {
  gmm_ctx *c = &g->c;
  const long bytes = sizeof(double);
  return __capsule_fwddiff_lanes((void *)gmm_objective,
                                 capsule_width, LANES,
                                 capsule_const, c->d,
                                 capsule_const, c->k,
                                 capsule_const, c->n,
                                 capsule_dupv, c->n_alphas * bytes, c->alphas,
                                 g->l_alphas,
                                 capsule_dupv, c->n_means * bytes, c->means,
                                 g->l_means,
                                 capsule_dupv, c->n_icf * bytes, c->icf,
                                 g->l_icf,
                                 capsule_const, c->x,
                                 capsule_const, c->gamma,
                                 capsule_const, c->m);
}

static void gmm_lanes(void *p) { bench_sink = gmm_lanes_value(p).d[0]; }

static void gmm_set_lane(void *p, int k) {
  gmm_fwd *g = p;
  copy_lane(g->t_alphas, g->l_alphas, g->c.n_alphas, k);
  copy_lane(g->t_means, g->l_means, g->c.n_means, k);
  copy_lane(g->t_icf, g->l_icf, g->c.n_icf, k);
}

static int gmm_forward(bench_rng *r) {
  const int d = 10, k = 25, n = 1000;
  char label[96];
  gmm_fwd g;
  snprintf(label, sizeof label, "gmm d=%d k=%d n=%d", d, k, n);
  gmm_setup(&g.c, d, k, n, 0x9e3779b97f4a7c15ULL);
  int fails = gmm_verify(&g.c, label);
  g.t_alphas = random_direction(r, g.c.n_alphas);
  g.t_means = random_direction(r, g.c.n_means);
  g.t_icf = random_direction(r, g.c.n_icf);
  bench_dot dirs[] = {{g.c.n_alphas, g.c.d_alphas, g.t_alphas},
                      {g.c.n_means, g.c.d_means, g.t_means},
                      {g.c.n_icf, g.c.d_icf, g.t_icf}};
  fails += verify_tangent(label, gmm_tangent_value(&g), dirs, 3);
  g.l_alphas = random_direction(r, LANES * g.c.n_alphas);
  g.l_means = random_direction(r, LANES * g.c.n_means);
  g.l_icf = random_direction(r, LANES * g.c.n_icf);
  fails += verify_lanes(label, gmm_lanes_value(&g), gmm_set_lane,
                        gmm_tangent_of, &g);
  if (!fails) {
    report(label, gmm_primal, gmm_tangent, &g);
    report_lanes(label, gmm_tangent, gmm_lanes, &g);
  }
  gmm_free(&g.c);
  free(g.t_alphas);
  free(g.t_means);
  free(g.t_icf);
  free(g.l_alphas);
  free(g.l_means);
  free(g.l_icf);
  return fails;
}

/*--- mlp -------------------------------------------------------------------*/

typedef struct mlp_fwd {
  mlp_ctx c;
  double *t_params, *t_work;
  double *l_params, *l_work; /* LANES each */
} mlp_fwd;

static double mlp_tangent_value(mlp_fwd *f) {
  mlp_ctx *c = &f->c;
  return __capsule_fwddiff((void *)mlp_objective,
                           capsule_const, c->i,
                           capsule_const, c->h,
                           capsule_const, c->o,
                           capsule_const, c->m,
                           capsule_dup, c->params, f->t_params,
                           capsule_const, c->x,
                           capsule_const, c->y,
                           capsule_dup, c->work, f->t_work);
}

static void mlp_tangent(void *p) { bench_sink = mlp_tangent_value(p); }
static double mlp_tangent_of(void *p) { return mlp_tangent_value(p); }

static lanes mlp_lanes_value(mlp_fwd *f) {
  mlp_ctx *c = &f->c;
  const long bytes = sizeof(double);
  return __capsule_fwddiff_lanes((void *)mlp_objective,
                                 capsule_width, LANES,
                                 capsule_const, c->i,
                                 capsule_const, c->h,
                                 capsule_const, c->o,
                                 capsule_const, c->m,
                                 capsule_dupv, c->n_params * bytes, c->params,
                                 f->l_params,
                                 capsule_const, c->x,
                                 capsule_const, c->y,
                                 capsule_dupv, c->n_work * bytes, c->work,
                                 f->l_work);
}

static void mlp_lanes(void *p) { bench_sink = mlp_lanes_value(p).d[0]; }

static void mlp_set_lane(void *p, int k) {
  mlp_fwd *f = p;
  copy_lane(f->t_params, f->l_params, f->c.n_params, k);
}

static int mlp_forward(bench_rng *r) {
  const int i = 64, h = 128, o = 10, m = 64;
  char label[96];
  mlp_fwd f;
  snprintf(label, sizeof label, "mlp %d-%d-%d-%d batch=%d", i, h, h, o, m);
  mlp_setup(&f.c, i, h, o, m, 0x243f6a8885a308d3ULL);
  int fails = mlp_verify(&f.c, label);
  f.t_params = random_direction(r, f.c.n_params);
  f.t_work = bench_alloc(f.c.n_work);
  bench_dot dirs[] = {{f.c.n_params, f.c.d_params, f.t_params}};
  fails += verify_tangent(label, mlp_tangent_value(&f), dirs, 1);
  f.l_params = random_direction(r, LANES * f.c.n_params);
  f.l_work = bench_alloc(LANES * f.c.n_work);
  fails += verify_lanes(label, mlp_lanes_value(&f), mlp_set_lane,
                        mlp_tangent_of, &f);
  if (!fails) {
    report(label, mlp_primal, mlp_tangent, &f);
    report_lanes(label, mlp_tangent, mlp_lanes, &f);
  }
  mlp_free(&f.c);
  free(f.t_params);
  free(f.t_work);
  free(f.l_params);
  free(f.l_work);
  return fails;
}

/*--- rk4 -------------------------------------------------------------------*/

typedef struct rk4_fwd {
  rk4_ctx c;
  double *t_x0, *t_F, *t_work;
  double *l_x0, *l_F, *l_work; /* LANES each */
} rk4_fwd;

static double rk4_tangent_value(rk4_fwd *f) {
  rk4_ctx *c = &f->c;
  return __capsule_fwddiff((void *)rk4_objective,
                           capsule_dup, c->x0, f->t_x0,
                           capsule_dup, c->F, f->t_F,
                           capsule_dup, c->work, f->t_work,
                           capsule_const, c->n,
                           capsule_const, c->steps,
                           capsule_const, c->dt);
}

static void rk4_tangent(void *p) { bench_sink = rk4_tangent_value(p); }
static double rk4_tangent_of(void *p) { return rk4_tangent_value(p); }

static lanes rk4_lanes_value(rk4_fwd *f) {
  rk4_ctx *c = &f->c;
  const long bytes = sizeof(double);
  return __capsule_fwddiff_lanes((void *)rk4_objective,
                                 capsule_width, LANES,
                                 capsule_dupv, c->n * bytes, c->x0, f->l_x0,
                                 capsule_dupv, bytes, c->F, f->l_F,
                                 capsule_dupv, 6 * c->n * bytes, c->work,
                                 f->l_work,
                                 capsule_const, c->n,
                                 capsule_const, c->steps,
                                 capsule_const, c->dt);
}

static void rk4_lanes(void *p) { bench_sink = rk4_lanes_value(p).d[0]; }

static void rk4_set_lane(void *p, int k) {
  rk4_fwd *f = p;
  copy_lane(f->t_x0, f->l_x0, f->c.n, k);
  copy_lane(f->t_F, f->l_F, 1, k);
}

static int rk4_forward(bench_rng *r) {
  const long n = 10, steps = 1000;
  const double dt = 0.01;
  char label[96];
  rk4_fwd f;
  snprintf(label, sizeof label, "rk4 lorenz96 n=%ld steps=%ld dt=%g", n, steps,
           dt);
  rk4_setup(&f.c, n, steps, dt, 0xb7e151628aed2a6bULL);
  int fails = rk4_verify(&f.c, label);
  f.t_x0 = random_direction(r, n);
  f.t_F = random_direction(r, 1);
  f.t_work = bench_alloc(6 * n);
  bench_dot dirs[] = {{n, f.c.d_x0, f.t_x0}, {1, f.c.d_F, f.t_F}};
  fails += verify_tangent(label, rk4_tangent_value(&f), dirs, 2);
  f.l_x0 = random_direction(r, LANES * n);
  f.l_F = random_direction(r, LANES);
  f.l_work = bench_alloc(LANES * 6 * n);
  fails += verify_lanes(label, rk4_lanes_value(&f), rk4_set_lane,
                        rk4_tangent_of, &f);
  if (!fails) {
    report(label, rk4_primal, rk4_tangent, &f);
    report_lanes(label, rk4_tangent, rk4_lanes, &f);
  }
  rk4_free(&f.c);
  free(f.t_x0);
  free(f.t_F);
  free(f.t_work);
  free(f.l_x0);
  free(f.l_F);
  free(f.l_work);
  return fails;
}

/*--- lstm ------------------------------------------------------------------*/

typedef struct lstm_fwd {
  lstm_ctx c;
  double *t_main, *t_extra, *t_state_work;
  double *l_main, *l_extra, *l_state_work; /* LANES each */
} lstm_fwd;

static double lstm_tangent_value(lstm_fwd *f) {
  lstm_ctx *x = &f->c;
  return __capsule_fwddiff((void *)lstm_objective,
                           capsule_const, x->l,
                           capsule_const, x->c,
                           capsule_const, x->b,
                           capsule_dup, x->main_params, f->t_main,
                           capsule_dup, x->extra_params, f->t_extra,
                           capsule_const, x->state,
                           capsule_dup, x->state_work, f->t_state_work,
                           capsule_const, x->sequence);
}

static void lstm_tangent(void *p) { bench_sink = lstm_tangent_value(p); }
static double lstm_tangent_of(void *p) { return lstm_tangent_value(p); }

static lanes lstm_lanes_value(lstm_fwd *f) {
  lstm_ctx *x = &f->c;
  const long bytes = sizeof(double);
  return __capsule_fwddiff_lanes((void *)lstm_objective,
                                 capsule_width, LANES,
                                 capsule_const, x->l,
                                 capsule_const, x->c,
                                 capsule_const, x->b,
                                 capsule_dupv, x->n_main * bytes,
                                 x->main_params, f->l_main,
                                 capsule_dupv, x->n_extra * bytes,
                                 x->extra_params, f->l_extra,
                                 capsule_const, x->state,
                                 capsule_dupv, x->n_state * bytes,
                                 x->state_work, f->l_state_work,
                                 capsule_const, x->sequence);
}

static void lstm_lanes(void *p) { bench_sink = lstm_lanes_value(p).d[0]; }

static void lstm_set_lane(void *p, int k) {
  lstm_fwd *f = p;
  copy_lane(f->t_main, f->l_main, f->c.n_main, k);
  copy_lane(f->t_extra, f->l_extra, f->c.n_extra, k);
}

static int lstm_forward(bench_rng *r) {
  const int l = 2, c = 1024, b = 14;
  char label[96];
  lstm_fwd f;
  snprintf(label, sizeof label, "lstm l=%d c=%d b=%d", l, c, b);
  lstm_setup(&f.c, l, c, b, 0x243f6a8885a308d3ULL);
  int fails = lstm_verify(&f.c, label);
  f.t_main = random_direction(r, f.c.n_main);
  f.t_extra = random_direction(r, f.c.n_extra);
  f.t_state_work = bench_alloc(f.c.n_state);
  bench_dot dirs[] = {{f.c.n_main, f.c.d_main, f.t_main},
                      {f.c.n_extra, f.c.d_extra, f.t_extra}};
  fails += verify_tangent(label, lstm_tangent_value(&f), dirs, 2);
  f.l_main = random_direction(r, LANES * f.c.n_main);
  f.l_extra = random_direction(r, LANES * f.c.n_extra);
  f.l_state_work = bench_alloc(LANES * f.c.n_state);
  fails += verify_lanes(label, lstm_lanes_value(&f), lstm_set_lane,
                        lstm_tangent_of, &f);
  if (!fails) {
    report(label, lstm_primal, lstm_tangent, &f);
    report_lanes(label, lstm_tangent, lstm_lanes, &f);
  }
  lstm_free(&f.c);
  free(f.t_main);
  free(f.t_extra);
  free(f.t_state_work);
  free(f.l_main);
  free(f.l_extra);
  free(f.l_state_work);
  return fails;
}

int main(void) {
  bench_rng r = bench_rng_seed(0x5eed00f0);
  int fails = gmm_forward(&r) + mlp_forward(&r) + rk4_forward(&r) +
              lstm_forward(&r);
  if (fails)
    printf("forward: %d check(s) FAILED, timings left out where they "
           "failed\n", fails);
  return fails ? 1 : 0;
}
