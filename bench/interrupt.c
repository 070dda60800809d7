/*===- interrupt.c - Benchmark: the cost of interruptible execution -------===*
 *
 * For the objectives of the other benchmarks (gmm, lstm, rk4, rotation)
 * and non-inlined loops that store (store_kernels_bench.h), in one process:
 *   - instrumented/primal: __capsule_primops (step counting, yield checks
 *     and journal barriers, the limit never reached) against the plain -O2
 *     primal;
 *   - snapshot/primal: resuming a capsule taken at step 0, so the journal
 *     saves the old contents of everything the run writes; with the journal
 *     bytes the capsule holds at the end.
 * Each run's result is checked against the plain primal's (bit for bit)
 * before anything is timed.
 *===----------------------------------------------------------------------===*/
/* The headers' gradient and check helpers are not used here. */
#pragma clang diagnostic ignored "-Wunused-function"
#include "bench_util.h"
#include "gmm_bench.h"
#include "lstm_bench.h"
#include "rk4_bench.h"
#include "rotation_bench.h"
#include "store_kernels_bench.h"

/* One benchmark: the plain primal, the same through __capsule_primops, and
 * a fresh capsule at step 0 of it. */
typedef struct interrupt_case {
  const char *label;
  void *ctx;
  double (*eval)(void *);
  uint64_t (*primops)(void *);
  capsule_t *(*start)(void *);
  capsule_t *capsule; /* live while the snapshot runs are measured */
  double result;
} interrupt_case;

static interrupt_case *current;

static void run_plain(void *p) { bench_sink = current->eval(p); }
static void run_primops(void *p) { bench_sink = (double)current->primops(p); }
static void run_snapshot(void *p) {
  (void)p;
  capsule_resume(current->capsule, &current->result);
}

static uint64_t gmm_primops(void *p) {
  gmm_ctx *c = p;
  return __capsule_primops((void *)gmm_objective, c->d, c->k, c->n, c->alphas,
                           c->means, c->icf, c->x, c->gamma, c->m);
}
static capsule_t *gmm_start(void *p) {
  gmm_ctx *c = p;
  return __capsule_interrupt((void *)gmm_objective, 0, c->d, c->k, c->n,
                             c->alphas, c->means, c->icf, c->x, c->gamma, c->m);
}

static uint64_t lstm_primops(void *p) {
  lstm_ctx *x = p;
  return __capsule_primops((void *)lstm_objective, x->l, x->c, x->b,
                           x->main_params, x->extra_params, x->state,
                           x->state_work, x->sequence);
}
static capsule_t *lstm_start(void *p) {
  lstm_ctx *x = p;
  return __capsule_interrupt((void *)lstm_objective, 0, x->l, x->c, x->b,
                             x->main_params, x->extra_params, x->state,
                             x->state_work, x->sequence);
}

static uint64_t rk4_primops(void *p) {
  rk4_ctx *c = p;
  return __capsule_primops((void *)rk4_objective, c->x0, c->F, c->work, c->n,
                           c->steps, c->dt);
}
static capsule_t *rk4_start(void *p) {
  rk4_ctx *c = p;
  return __capsule_interrupt((void *)rk4_objective, 0, c->x0, c->F, c->work,
                             c->n, c->steps, c->dt);
}

static uint64_t rotation_primops(void *p) {
  rotation_ctx *c = p;
  return __capsule_primops((void *)rotation_objective, c->x0, c->work, c->n,
                           c->l, c->phi);
}
static capsule_t *rotation_start(void *p) {
  rotation_ctx *c = p;
  return __capsule_interrupt((void *)rotation_objective, 0, c->x0, c->work,
                             c->n, c->l, c->phi);
}

static uint64_t store_kernels_primops(void *p) {
  store_kernels_ctx *c = p;
  return __capsule_primops((void *)store_kernels_objective, c->kernel, c->n,
                           c->reps, c->stride, c->x, c->z, c->to, c->y);
}
static capsule_t *store_kernels_start(void *p) {
  store_kernels_ctx *c = p;
  return __capsule_interrupt((void *)store_kernels_objective, 0, c->kernel,
                             c->n, c->reps, c->stride, c->x, c->z, c->to,
                             c->y);
}

/* Checks that the instrumented runs compute what the plain one does, then
 * measures both ratios. Returns nonzero on a mismatch. */
static int measure(interrupt_case *ic) {
  current = ic;
  double plain = ic->eval(ic->ctx);
  uint64_t steps = ic->primops(ic->ctx);
  /* No capsule is live here: this is the cost of instrumentation alone. */
  bench_result inst = bench_measure(run_plain, run_primops, ic->ctx);
  ic->capsule = ic->start(ic->ctx);
  if (!ic->capsule) {
    printf("%s: __capsule_interrupt at step 0 returned no capsule\n",
           ic->label);
    return 1;
  }
  capsule_resume(ic->capsule, &ic->result);
  if (ic->result != plain) {
    printf("%s: interruptible run computes %.17g, plain %.17g: FAILED\n",
           ic->label, ic->result, plain);
    return 1;
  }
  bench_result snap = bench_measure(run_plain, run_snapshot, ic->ctx);
  capsule_interrupt_stats_t st;
  capsule_get_interrupt_stats(&st);
  printf("%s: %llu steps; primal %.3f ms\n", ic->label,
         (unsigned long long)steps, 1e3 * inst.primal_s);
  printf("    instrumented/primal %.3f (median of %d), snapshot/primal %.3f "
         "(median of %d), journal %.2f MiB (%llu bytes), peak RSS %.1f MiB\n",
         inst.ratio, inst.reps, snap.ratio, snap.reps,
         (double)st.newest_journal_bytes / (1024.0 * 1024.0),
         (unsigned long long)st.newest_journal_bytes, snap.maxrss_mib);
  fflush(stdout);
  capsule_release(ic->capsule);
  return 0;
}

int main(void) {
  int fails = 0;
  gmm_ctx g;
  gmm_setup(&g, 10, 25, 1000, 0x9e3779b97f4a7c15ULL);
  interrupt_case gc = {
      "gmm d=10 k=25 n=1000", &g, gmm_eval, gmm_primops, gmm_start, NULL, 0};
  fails += measure(&gc);
  gmm_free(&g);

  lstm_ctx x;
  lstm_setup(&x, 2, 1024, 14, 0x243f6a8885a308d3ULL);
  interrupt_case lc = {
      "lstm l=2 c=1024 b=14", &x, lstm_eval, lstm_primops, lstm_start, NULL, 0};
  fails += measure(&lc);
  lstm_free(&x);

  rk4_ctx r;
  rk4_setup(&r, 10, 1000, 0.01, 0xb7e151628aed2a6bULL);
  interrupt_case rc = {"rk4 lorenz96 n=10 steps=1000",
                       &r,
                       rk4_eval,
                       rk4_primops,
                       rk4_start,
                       NULL,
                       0};
  fails += measure(&rc);
  rk4_free(&r);

  static const long ls[] = {53, 1000};
  for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++) {
    rotation_ctx c;
    char label[64];
    rotation_setup(&c, 1000, ls[i], 3.0);
    snprintf(label, sizeof label, "rotation n=1000 l=%ld", ls[i]);
    interrupt_case oc = {
        label, &c, rotation_eval, rotation_primops, rotation_start, NULL, 0};
    fails += measure(&oc);
    rotation_free(&c);
  }

  static const char *const kernels[] = {"axpy", "relu", "scatter", "column"};
  for (int k = STORE_AXPY; k <= STORE_COLUMN; k++) {
    store_kernels_ctx c;
    char label[64];
    store_kernels_setup(&c, k, 4096, 64, 3, 0x452821e638d01377ULL);
    snprintf(label, sizeof label, "store kernel %s n=4096 x64 (not inlined)",
             kernels[k]);
    interrupt_case kc = {label, &c, store_kernels_eval, store_kernels_primops,
                         store_kernels_start, NULL, 0};
    fails += measure(&kc);
    store_kernels_free(&c);
  }
  return fails != 0;
}
