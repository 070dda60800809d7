/*===- hvp.c - Benchmark: a Hessian-vector product against the gradient ----===*
 *
 * gmm, mlp, rk4 and lstm with the sizes of their own benchmarks. The
 * Hessian-vector product is Enzyme's forward over reverse: __capsule_fwddiff
 * of a function that calls __capsule_autodiff, along a random direction v in
 * all differentiated inputs at once; it is timed against the gradient.
 * Each product is checked first: w . Hv against w'Hv computed by forward
 * over forward mode (a mode tested on its own) for another random w. Exits
 * non-zero, before any timing, if a check fails. For rk4, the product by
 * reverse over reverse too (the gradient of grad f . v), checked against
 * forward over reverse. For mlp, eight products in one vector-mode call
 * against eight calls of width 1, each lane checked against its width-1
 * product first.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "gmm_bench.h"
#include "lstm_bench.h"
#include "mlp_bench.h"
#include "rk4_bench.h"

/* One differentiated input: the direction of the product, its result, the
 * second direction of the check, and the product by reverse over reverse. */
typedef struct hvp_input {
  long n;
  double *v, *hv, *w, *rr;
} hvp_input;

static void hvp_input_init(hvp_input *in, bench_rng *r, long n) {
  in->n = n;
  in->v = bench_alloc(n);
  in->hv = bench_alloc(n);
  in->w = bench_alloc(n);
  in->rr = bench_alloc(n);
  for (long i = 0; i < n; i++) {
    in->v[i] = bench_normal(r);
    in->w[i] = bench_normal(r);
  }
}

static void hvp_input_free(hvp_input *in) {
  free(in->v);
  free(in->hv);
  free(in->w);
  free(in->rr);
}

/* w . Hv against w'Hv by forward over forward. */
static int verify_hvp(const char *label, const hvp_input *in, int count,
                      double wHv) {
  bench_dot dots[3];
  for (int a = 0; a < count; a++)
    dots[a] = (bench_dot){in[a].n, in[a].w, in[a].hv};
  return bench_verify_dot(label, "w'Hv by forward over forward", wHv,
                          "w . Hv", dots, count, 1e-9);
}

static void report(const char *label, void (*gradient)(void *),
                   void (*hvp)(void *), void *ctx) {
  bench_result r = bench_measure(gradient, hvp, ctx);
  bench_print_pair(label, "gradient", "hvp", &r);
}

static void zero(double *p, long n) { memset(p, 0, sizeof(double) * (size_t)n); }

/*--- gmm -------------------------------------------------------------------*/

typedef struct gmm_hvp_ctx {
  gmm_ctx c; /* first: the gradient takes it as its gmm_ctx */
  hvp_input in[3]; /* alphas, means, icf */
} gmm_hvp_ctx;

static void gmm_grad_into(int d, int k, int n, double *alphas, double *da,
                          double *means, double *dm, double *icf, double *di,
                          const double *x, double gamma, int m) {
  __capsule_autodiff_v((void *)gmm_objective,
                       capsule_const, d, capsule_const, k, capsule_const, n,
                       capsule_dup, alphas, da,
                       capsule_dup, means, dm,
                       capsule_dup, icf, di,
                       capsule_const, x, capsule_const, gamma,
                       capsule_const, m);
}

static double gmm_dir(int d, int k, int n, double *alphas, double *va,
                      double *means, double *vm, double *icf, double *vi,
                      const double *x, double gamma, int m) {
  return __capsule_fwddiff((void *)gmm_objective,
                           capsule_const, d, capsule_const, k,
                           capsule_const, n,
                           capsule_dup, alphas, va,
                           capsule_dup, means, vm,
                           capsule_dup, icf, vi,
                           capsule_const, x, capsule_const, gamma,
                           capsule_const, m);
}

static void gmm_hvp(void *p) {
  gmm_hvp_ctx *g = p;
  gmm_ctx *c = &g->c;
  zero(c->d_alphas, c->n_alphas);
  zero(c->d_means, c->n_means);
  zero(c->d_icf, c->n_icf);
  for (int a = 0; a < 3; a++)
    zero(g->in[a].hv, g->in[a].n);
  __capsule_fwddiff((void *)gmm_grad_into,
                    capsule_const, c->d, capsule_const, c->k,
                    capsule_const, c->n,
                    capsule_dup, c->alphas, g->in[0].v,
                    capsule_dup, c->d_alphas, g->in[0].hv,
                    capsule_dup, c->means, g->in[1].v,
                    capsule_dup, c->d_means, g->in[1].hv,
                    capsule_dup, c->icf, g->in[2].v,
                    capsule_dup, c->d_icf, g->in[2].hv,
                    capsule_const, c->x, capsule_const, c->gamma,
                    capsule_const, c->m);
}

static double gmm_wHv(gmm_hvp_ctx *g) {
  gmm_ctx *c = &g->c;
  return __capsule_fwddiff((void *)gmm_dir,
                           capsule_const, c->d, capsule_const, c->k,
                           capsule_const, c->n,
                           capsule_dup, c->alphas, g->in[0].w,
                           capsule_const, g->in[0].v,
                           capsule_dup, c->means, g->in[1].w,
                           capsule_const, g->in[1].v,
                           capsule_dup, c->icf, g->in[2].w,
                           capsule_const, g->in[2].v,
                           capsule_const, c->x, capsule_const, c->gamma,
                           capsule_const, c->m);
}

static int gmm_bench(bench_rng *r) {
  const int d = 10, k = 25, n = 1000;
  char label[96];
  gmm_hvp_ctx g;
  snprintf(label, sizeof label, "gmm d=%d k=%d n=%d", d, k, n);
  gmm_setup(&g.c, d, k, n, 0x9e3779b97f4a7c15ULL);
  hvp_input_init(&g.in[0], r, g.c.n_alphas);
  hvp_input_init(&g.in[1], r, g.c.n_means);
  hvp_input_init(&g.in[2], r, g.c.n_icf);
  int fails = gmm_verify(&g.c, label);
  gmm_hvp(&g);
  fails += verify_hvp(label, g.in, 3, gmm_wHv(&g));
  if (!fails)
    report(label, gmm_gradient, gmm_hvp, &g);
  gmm_free(&g.c);
  for (int a = 0; a < 3; a++)
    hvp_input_free(&g.in[a]);
  return fails;
}

/*--- mlp -------------------------------------------------------------------*/

typedef struct mlp_hvp_ctx {
  mlp_ctx c;
  hvp_input params;
  double *t_work, *h_work;
} mlp_hvp_ctx;

static void mlp_grad_into(int i, int h, int o, int m, double *params,
                          double *dp, const double *x, const double *y,
                          double *work, double *dw) {
  __capsule_autodiff_v((void *)mlp_objective,
                       capsule_const, i, capsule_const, h, capsule_const, o,
                       capsule_const, m,
                       capsule_dup, params, dp,
                       capsule_const, x, capsule_const, y,
                       capsule_dup, work, dw);
}

static double mlp_dir(int i, int h, int o, int m, double *params, double *vp,
                      const double *x, const double *y, double *work,
                      double *tw) {
  return __capsule_fwddiff((void *)mlp_objective,
                           capsule_const, i, capsule_const, h,
                           capsule_const, o, capsule_const, m,
                           capsule_dup, params, vp,
                           capsule_const, x, capsule_const, y,
                           capsule_dup, work, tw);
}

static void mlp_hvp(void *p) {
  mlp_hvp_ctx *f = p;
  mlp_ctx *c = &f->c;
  zero(c->d_params, c->n_params);
  zero(c->d_work, c->n_work);
  zero(f->params.hv, c->n_params);
  zero(f->h_work, c->n_work);
  __capsule_fwddiff((void *)mlp_grad_into,
                    capsule_const, c->i, capsule_const, c->h,
                    capsule_const, c->o, capsule_const, c->m,
                    capsule_dup, c->params, f->params.v,
                    capsule_dup, c->d_params, f->params.hv,
                    capsule_const, c->x, capsule_const, c->y,
                    capsule_dup, c->work, f->t_work,
                    capsule_dup, c->d_work, f->h_work);
}

static double mlp_wHv(mlp_hvp_ctx *f) {
  mlp_ctx *c = &f->c;
  double *w_work = bench_alloc(c->n_work), *tt_work = bench_alloc(c->n_work);
  double wHv = __capsule_fwddiff((void *)mlp_dir,
                                 capsule_const, c->i, capsule_const, c->h,
                                 capsule_const, c->o, capsule_const, c->m,
                                 capsule_dup, c->params, f->params.w,
                                 capsule_const, f->params.v,
                                 capsule_const, c->x, capsule_const, c->y,
                                 capsule_dup, c->work, w_work,
                                 capsule_dup, f->t_work, tt_work);
  free(w_work);
  free(tt_work);
  return wHv;
}

/* Eight products in one call (vector mode: capsule_width 8, the inner
 * gradient and the primal run once) against eight calls of width 1. V, HV
 * and the work arrays' tangents hold the eight lanes one after the other. */
#define LANES 8
typedef struct mlp_batch {
  mlp_hvp_ctx *f;
  double *V, *HV, *t_work, *h_work;
} mlp_batch;

static void mlp_hvp_lanes(void *p) {
  mlp_batch *b = p;
  mlp_ctx *c = &b->f->c;
  const long sp = c->n_params * (long)sizeof(double);
  const long sw = c->n_work * (long)sizeof(double);
  zero(c->d_params, c->n_params);
  zero(c->d_work, c->n_work);
  zero(b->HV, LANES * c->n_params);
  zero(b->h_work, LANES * c->n_work);
  __capsule_fwddiff((void *)mlp_grad_into, capsule_width, LANES,
                    capsule_const, c->i, capsule_const, c->h,
                    capsule_const, c->o, capsule_const, c->m,
                    capsule_dupv, sp, c->params, b->V,
                    capsule_dupv, sp, c->d_params, b->HV,
                    capsule_const, c->x, capsule_const, c->y,
                    capsule_dupv, sw, c->work, b->t_work,
                    capsule_dupv, sw, c->d_work, b->h_work);
}

static void mlp_hvp_one_by_one(void *p) {
  mlp_batch *b = p;
  mlp_hvp_ctx *f = b->f;
  for (int k = 0; k < LANES; k++) {
    memcpy(f->params.v, b->V + k * f->c.n_params,
           sizeof(double) * (size_t)f->c.n_params);
    mlp_hvp(f);
  }
}

/* Each lane against the product of width 1 along its direction. */
static int verify_lanes(const char *label, mlp_batch *b) {
  mlp_hvp_ctx *f = b->f;
  long n = f->c.n_params;
  mlp_hvp_lanes(b);
  double worst = 0;
  for (int k = 0; k < LANES; k++) {
    memcpy(f->params.v, b->V + k * n, sizeof(double) * (size_t)n);
    mlp_hvp(f);
    double scale = 0;
    for (long i = 0; i < n; i++)
      scale = fmax(scale, fabs(f->params.hv[i]));
    double rel = bench_worst_rel_diff(b->HV + k * n, f->params.hv, n,
                                      scale > 0 ? scale : 1);
    worst = rel > worst || rel != rel ? rel : worst;
  }
  int ok = worst <= 1e-12;
  printf("verify %s: width 8, each lane against the product of width 1 "
         "along its direction, largest difference %.1e of its largest "
         "entry: %s\n",
         label, worst, ok ? "passed" : "FAILED");
  return !ok;
}

static int mlp_batch_bench(const char *label, mlp_hvp_ctx *f, bench_rng *r) {
  mlp_batch b = {f, bench_alloc(LANES * f->c.n_params),
                 bench_alloc(LANES * f->c.n_params),
                 bench_alloc(LANES * f->c.n_work),
                 bench_alloc(LANES * f->c.n_work)};
  for (long i = 0; i < LANES * f->c.n_params; i++)
    b.V[i] = bench_normal(r);
  zero(b.t_work, LANES * f->c.n_work);
  int fails = verify_lanes(label, &b);
  if (!fails) {
    bench_result res =
        bench_measure(mlp_hvp_one_by_one, mlp_hvp_lanes, &b);
    bench_print_pair(label, "8 products", "width 8", &res);
  }
  free(b.V);
  free(b.HV);
  free(b.t_work);
  free(b.h_work);
  return fails;
}

static int mlp_bench(bench_rng *r) {
  const int i = 64, h = 128, o = 10, m = 64;
  char label[96];
  mlp_hvp_ctx f;
  snprintf(label, sizeof label, "mlp %d-%d-%d-%d batch=%d", i, h, h, o, m);
  mlp_setup(&f.c, i, h, o, m, 0x243f6a8885a308d3ULL);
  hvp_input_init(&f.params, r, f.c.n_params);
  f.t_work = bench_alloc(f.c.n_work);
  f.h_work = bench_alloc(f.c.n_work);
  int fails = mlp_verify(&f.c, label);
  mlp_hvp(&f);
  fails += verify_hvp(label, &f.params, 1, mlp_wHv(&f));
  if (!fails) {
    report(label, mlp_gradient, mlp_hvp, &f);
    fails += mlp_batch_bench(label, &f, r);
  }
  mlp_free(&f.c);
  hvp_input_free(&f.params);
  free(f.t_work);
  free(f.h_work);
  return fails;
}

/*--- rk4 -------------------------------------------------------------------*/

typedef struct rk4_hvp_ctx {
  rk4_ctx c;
  hvp_input in[2]; /* x0, F */
  double *t_work, *h_work;
} rk4_hvp_ctx;

static void rk4_grad_into(double *x0, double *dx0, double *F, double *dF,
                          double *work, double *dw, long n, long steps,
                          double dt) {
  __capsule_autodiff_v((void *)rk4_objective,
                       capsule_dup, x0, dx0, capsule_dup, F, dF,
                       capsule_dup, work, dw,
                       capsule_const, n, capsule_const, steps,
                       capsule_const, dt);
}

static double rk4_dir(double *x0, double *vx0, double *F, double *vF,
                      double *work, double *tw, long n, long steps,
                      double dt) {
  return __capsule_fwddiff((void *)rk4_objective,
                           capsule_dup, x0, vx0, capsule_dup, F, vF,
                           capsule_dup, work, tw,
                           capsule_const, n, capsule_const, steps,
                           capsule_const, dt);
}

static void rk4_hvp(void *p) {
  rk4_hvp_ctx *f = p;
  rk4_ctx *c = &f->c;
  zero(c->d_x0, c->n);
  zero(c->d_F, 1);
  zero(c->d_work, 6 * c->n);
  for (int a = 0; a < 2; a++)
    zero(f->in[a].hv, f->in[a].n);
  zero(f->h_work, 6 * c->n);
  __capsule_fwddiff((void *)rk4_grad_into,
                    capsule_dup, c->x0, f->in[0].v,
                    capsule_dup, c->d_x0, f->in[0].hv,
                    capsule_dup, c->F, f->in[1].v,
                    capsule_dup, c->d_F, f->in[1].hv,
                    capsule_dup, c->work, f->t_work,
                    capsule_dup, c->d_work, f->h_work,
                    capsule_const, c->n, capsule_const, c->steps,
                    capsule_const, c->dt);
}

static double rk4_wHv(rk4_hvp_ctx *f) {
  rk4_ctx *c = &f->c;
  double *w_work = bench_alloc(6 * c->n), *tt_work = bench_alloc(6 * c->n);
  double wHv = __capsule_fwddiff((void *)rk4_dir,
                                 capsule_dup, c->x0, f->in[0].w,
                                 capsule_const, f->in[0].v,
                                 capsule_dup, c->F, f->in[1].w,
                                 capsule_const, f->in[1].v,
                                 capsule_dup, c->work, w_work,
                                 capsule_dup, f->t_work, tt_work,
                                 capsule_const, c->n,
                                 capsule_const, c->steps,
                                 capsule_const, c->dt);
  free(w_work);
  free(tt_work);
  return wHv;
}

/* grad f . v, computed by an inner gradient into blocks of its own: its
 * gradient is Hv (reverse over reverse). */
static double rk4_grad_dot(double *x0, double *F, double *work,
                           const double *vx0, const double *vF, long n,
                           long steps, double dt) {
  double *dx0 = calloc((size_t)n, sizeof(double));
  double *dF = calloc(1, sizeof(double));
  double *dw = calloc((size_t)(6 * n), sizeof(double));
  rk4_grad_into(x0, dx0, F, dF, work, dw, n, steps, dt);
  double s = dF[0] * vF[0];
  for (long i = 0; i < n; i++)
    s += dx0[i] * vx0[i];
  free(dx0);
  free(dF);
  free(dw);
  return s;
}

static void rk4_hvp_rr(void *p) {
  rk4_hvp_ctx *f = p;
  rk4_ctx *c = &f->c;
  for (int a = 0; a < 2; a++)
    zero(f->in[a].rr, f->in[a].n);
  zero(f->h_work, 6 * c->n);
  __capsule_autodiff_v((void *)rk4_grad_dot,
                       capsule_dup, c->x0, f->in[0].rr,
                       capsule_dup, c->F, f->in[1].rr,
                       capsule_dup, c->work, f->h_work,
                       capsule_const, f->in[0].v, capsule_const, f->in[1].v,
                       capsule_const, c->n, capsule_const, c->steps,
                       capsule_const, c->dt);
}

/* Reverse over reverse against forward over reverse (in[].hv). */
static int verify_rr(const char *label, const hvp_input *in) {
  int fails = 0;
  for (int a = 0; a < 2; a++)
    for (long i = 0; i < in[a].n; i++) {
      double want = in[a].hv[i], got = in[a].rr[i];
      if (!(fabs(got - want) <= 1e-9 * (1 + fabs(want)))) {
        printf("verify %s: Hv by reverse over reverse [%d][%ld] %.17g, by "
               "forward over reverse %.17g\n",
               label, a, i, got, want);
        fails++;
      }
    }
  printf("verify %s: Hv by reverse over reverse against forward over "
         "reverse, tolerance 1e-9: %s\n",
         label, fails ? "FAILED" : "passed");
  return fails;
}

static int rk4_bench(bench_rng *r) {
  const long n = 10, steps = 1000;
  const double dt = 0.01;
  char label[96];
  rk4_hvp_ctx f;
  snprintf(label, sizeof label, "rk4 lorenz96 n=%ld steps=%ld dt=%g", n, steps,
           dt);
  rk4_setup(&f.c, n, steps, dt, 0xb7e151628aed2a6bULL);
  hvp_input_init(&f.in[0], r, n);
  hvp_input_init(&f.in[1], r, 1);
  f.t_work = bench_alloc(6 * n);
  f.h_work = bench_alloc(6 * n);
  int fails = rk4_verify(&f.c, label);
  rk4_hvp(&f);
  fails += verify_hvp(label, f.in, 2, rk4_wHv(&f));
  rk4_hvp_rr(&f);
  fails += verify_rr(label, f.in);
  if (!fails) {
    report(label, rk4_gradient, rk4_hvp, &f);
    bench_result rr = bench_measure(rk4_gradient, rk4_hvp_rr, &f);
    bench_print_pair(label, "gradient", "hvp by reverse over reverse", &rr);
  }
  rk4_free(&f.c);
  for (int a = 0; a < 2; a++)
    hvp_input_free(&f.in[a]);
  free(f.t_work);
  free(f.h_work);
  return fails;
}

/*--- lstm ------------------------------------------------------------------*/

typedef struct lstm_hvp_ctx {
  lstm_ctx c;
  hvp_input in[2]; /* main_params, extra_params */
  double *t_state_work, *h_state_work;
} lstm_hvp_ctx;

static void lstm_grad_into(int l, int c, int b, double *main_params,
                           double *dm, double *extra_params, double *de,
                           const double *state, double *state_work,
                           double *dsw, const double *sequence) {
  __capsule_autodiff_v((void *)lstm_objective,
                       capsule_const, l, capsule_const, c, capsule_const, b,
                       capsule_dup, main_params, dm,
                       capsule_dup, extra_params, de,
                       capsule_const, state,
                       capsule_dup, state_work, dsw,
                       capsule_const, sequence);
}

static double lstm_dir(int l, int c, int b, double *main_params, double *vm,
                       double *extra_params, double *ve, const double *state,
                       double *state_work, double *tsw,
                       const double *sequence) {
  return __capsule_fwddiff((void *)lstm_objective,
                           capsule_const, l, capsule_const, c,
                           capsule_const, b,
                           capsule_dup, main_params, vm,
                           capsule_dup, extra_params, ve,
                           capsule_const, state,
                           capsule_dup, state_work, tsw,
                           capsule_const, sequence);
}

static void lstm_hvp(void *p) {
  lstm_hvp_ctx *f = p;
  lstm_ctx *x = &f->c;
  zero(x->d_main, x->n_main);
  zero(x->d_extra, x->n_extra);
  zero(x->d_state_work, x->n_state);
  for (int a = 0; a < 2; a++)
    zero(f->in[a].hv, f->in[a].n);
  zero(f->h_state_work, x->n_state);
  __capsule_fwddiff((void *)lstm_grad_into,
                    capsule_const, x->l, capsule_const, x->c,
                    capsule_const, x->b,
                    capsule_dup, x->main_params, f->in[0].v,
                    capsule_dup, x->d_main, f->in[0].hv,
                    capsule_dup, x->extra_params, f->in[1].v,
                    capsule_dup, x->d_extra, f->in[1].hv,
                    capsule_const, x->state,
                    capsule_dup, x->state_work, f->t_state_work,
                    capsule_dup, x->d_state_work, f->h_state_work,
                    capsule_const, x->sequence);
}

static double lstm_wHv(lstm_hvp_ctx *f) {
  lstm_ctx *x = &f->c;
  double *w_sw = bench_alloc(x->n_state), *tt_sw = bench_alloc(x->n_state);
  double wHv = __capsule_fwddiff((void *)lstm_dir,
                                 capsule_const, x->l, capsule_const, x->c,
                                 capsule_const, x->b,
                                 capsule_dup, x->main_params, f->in[0].w,
                                 capsule_const, f->in[0].v,
                                 capsule_dup, x->extra_params, f->in[1].w,
                                 capsule_const, f->in[1].v,
                                 capsule_const, x->state,
                                 capsule_dup, x->state_work, w_sw,
                                 capsule_dup, f->t_state_work, tt_sw,
                                 capsule_const, x->sequence);
  free(w_sw);
  free(tt_sw);
  return wHv;
}

static int lstm_bench(bench_rng *r) {
  const int l = 2, c = 1024, b = 14;
  char label[96];
  lstm_hvp_ctx f;
  snprintf(label, sizeof label, "lstm l=%d c=%d b=%d", l, c, b);
  lstm_setup(&f.c, l, c, b, 0x243f6a8885a308d3ULL);
  hvp_input_init(&f.in[0], r, f.c.n_main);
  hvp_input_init(&f.in[1], r, f.c.n_extra);
  f.t_state_work = bench_alloc(f.c.n_state);
  f.h_state_work = bench_alloc(f.c.n_state);
  int fails = lstm_verify(&f.c, label);
  lstm_hvp(&f);
  fails += verify_hvp(label, f.in, 2, lstm_wHv(&f));
  if (!fails)
    report(label, lstm_gradient, lstm_hvp, &f);
  lstm_free(&f.c);
  for (int a = 0; a < 2; a++)
    hvp_input_free(&f.in[a]);
  free(f.t_state_work);
  free(f.h_state_work);
  return fails;
}

int main(void) {
  bench_rng r = bench_rng_seed(0x5eed0417);
  int fails = gmm_bench(&r) + mlp_bench(&r) + rk4_bench(&r) + lstm_bench(&r);
  if (fails)
    printf("hvp: %d check(s) FAILED, timings left out where they failed\n",
           fails);
  return fails ? 1 : 0;
}
