/*===- study.c - Capsule's splitter against LLVM coroutines, measured -----===*
 *
 * For each kernel of kernels.inc, in one process, against the plain C -O2
 * primal (medians of interleaved runs, bench_util.h):
 *   - the same source as plain C++ (control: C against C++ code generation);
 *   - Capsule: __capsule_primops (limit never reached), a run with a capsule
 *     live from step 0 (every first write journaled), and chains of
 *     capsules every K steps (__capsule_interrupt, then capsule_resume_for
 *     on the newest capsule until the end; released newest first);
 *   - C++20 coroutines (coro_kernels.cpp): never yielding, and yielding
 *     every K' steps, K' = K scaled by the ratio of the two step counts so
 *     both variants yield about equally often.
 * Each kernel is studied in a child process of its own.
 * Every variant's result must equal the plain primal's bit for bit (and the
 * kernels' the objectives of bench/NAME_objective.inc) before anything is
 * timed; the program exits non-zero otherwise.
 *===----------------------------------------------------------------------===*/
/* The bench headers' gradient and check helpers are not used here. */
#pragma clang diagnostic ignored "-Wunused-function"
#include "../bench_util.h"
#include "../gmm_bench.h"
#include "../rk4_bench.h"
#include "../rotation_bench.h"
#include "kernels_api.h"

#include <sys/wait.h>
#include <unistd.h>

/* kernels.inc as C: the plain primal, and what the pass clones into step
 * functions for the markers below. */
#include "kernels_plain.h"
/* After the macros it needs. */
#include "kernels.inc"

typedef struct spin_ctx {
  double limit;
} spin_ctx;

typedef struct tree_ctx {
  double *x;
  long n;
} tree_ctx;

/* One kernel in its variants. */
typedef struct study_kernel {
  const char *label;
  void *ctx;
  double (*plain)(void *);
  double (*original)(void *); /* bench/NAME_objective.inc, or NULL */
  double (*cxx_plain)(void *);
  uint64_t (*primops)(void *);
  capsule_t *(*interrupt)(void *, uint64_t);
  double (*coro)(void *, long, csx_run *);
} study_kernel;

/*--- the kernels' entries --------------------------------------------------*/

static double rotation_plain(void *p) {
  rotation_ctx *c = p;
  return cs_rotation(c->x0, c->work, c->n, c->l, c->phi);
}
static double rotation_cxx(void *p) {
  rotation_ctx *c = p;
  return csx_plain_rotation(c->x0, c->work, c->n, c->l, c->phi);
}
static uint64_t rotation_primops(void *p) {
  rotation_ctx *c = p;
  return __capsule_primops((void *)cs_rotation, c->x0, c->work, c->n, c->l,
                           c->phi);
}
static capsule_t *rotation_interrupt(void *p, uint64_t l) {
  rotation_ctx *c = p;
  return __capsule_interrupt((void *)cs_rotation, l, c->x0, c->work, c->n, c->l,
                             c->phi);
}
static double rotation_coro(void *p, long k, csx_run *r) {
  rotation_ctx *c = p;
  return csx_coro_rotation(k, r, c->x0, c->work, c->n, c->l, c->phi);
}

static double rk4k_plain(void *p) {
  rk4_ctx *c = p;
  return cs_rk4(c->x0, c->F, c->work, c->n, c->steps, c->dt);
}
static double rk4k_cxx(void *p) {
  rk4_ctx *c = p;
  return csx_plain_rk4(c->x0, c->F, c->work, c->n, c->steps, c->dt);
}
static uint64_t rk4k_primops(void *p) {
  rk4_ctx *c = p;
  return __capsule_primops((void *)cs_rk4, c->x0, c->F, c->work, c->n, c->steps,
                           c->dt);
}
static capsule_t *rk4k_interrupt(void *p, uint64_t l) {
  rk4_ctx *c = p;
  return __capsule_interrupt((void *)cs_rk4, l, c->x0, c->F, c->work, c->n,
                             c->steps, c->dt);
}
static double rk4k_coro(void *p, long k, csx_run *r) {
  rk4_ctx *c = p;
  return csx_coro_rk4(k, r, c->x0, c->F, c->work, c->n, c->steps, c->dt);
}

static double rk4c_plain(void *p) {
  rk4_ctx *c = p;
  return cs_rk4_calls(c->x0, c->F, c->work, c->n, c->steps, c->dt);
}
static double rk4c_cxx(void *p) {
  rk4_ctx *c = p;
  return csx_plain_rk4_calls(c->x0, c->F, c->work, c->n, c->steps, c->dt);
}
static uint64_t rk4c_primops(void *p) {
  rk4_ctx *c = p;
  return __capsule_primops((void *)cs_rk4_calls, c->x0, c->F, c->work, c->n,
                           c->steps, c->dt);
}
static capsule_t *rk4c_interrupt(void *p, uint64_t l) {
  rk4_ctx *c = p;
  return __capsule_interrupt((void *)cs_rk4_calls, l, c->x0, c->F, c->work,
                             c->n, c->steps, c->dt);
}
static double rk4c_coro(void *p, long k, csx_run *r) {
  rk4_ctx *c = p;
  return csx_coro_rk4_calls(k, r, c->x0, c->F, c->work, c->n, c->steps, c->dt);
}

static double tree_plain(void *p) {
  tree_ctx *c = p;
  return cs_tree(c->x, 0, c->n);
}
static double tree_cxx(void *p) {
  tree_ctx *c = p;
  return csx_plain_tree(c->x, c->n);
}
static uint64_t tree_primops(void *p) {
  tree_ctx *c = p;
  return __capsule_primops((void *)cs_tree, c->x, 0L, c->n);
}
static capsule_t *tree_interrupt(void *p, uint64_t l) {
  tree_ctx *c = p;
  return __capsule_interrupt((void *)cs_tree, l, c->x, 0L, c->n);
}
static double tree_coro(void *p, long k, csx_run *r) {
  tree_ctx *c = p;
  return csx_coro_tree(k, r, c->x, c->n);
}

static double spin_plain(void *p) {
  spin_ctx *c = p;
  return cs_spin(c->limit);
}
static double spin_cxx(void *p) {
  spin_ctx *c = p;
  return csx_plain_spin(c->limit);
}
static uint64_t spin_primops(void *p) {
  spin_ctx *c = p;
  return __capsule_primops((void *)cs_spin, c->limit);
}
static capsule_t *spin_interrupt(void *p, uint64_t l) {
  spin_ctx *c = p;
  return __capsule_interrupt((void *)cs_spin, l, c->limit);
}
static double spin_coro(void *p, long k, csx_run *r) {
  spin_ctx *c = p;
  return csx_coro_spin(k, r, c->limit);
}

static double gmmk_plain(void *p) {
  gmm_ctx *c = p;
  return cs_gmm(c->d, c->k, c->n, c->alphas, c->means, c->icf, c->x, c->gamma,
                c->m);
}
static double gmmk_cxx(void *p) {
  gmm_ctx *c = p;
  return csx_plain_gmm(c->d, c->k, c->n, c->alphas, c->means, c->icf, c->x,
                       c->gamma, c->m);
}
static uint64_t gmmk_primops(void *p) {
  gmm_ctx *c = p;
  return __capsule_primops((void *)cs_gmm, c->d, c->k, c->n, c->alphas,
                           c->means, c->icf, c->x, c->gamma, c->m);
}
static capsule_t *gmmk_interrupt(void *p, uint64_t l) {
  gmm_ctx *c = p;
  return __capsule_interrupt((void *)cs_gmm, l, c->d, c->k, c->n, c->alphas,
                             c->means, c->icf, c->x, c->gamma, c->m);
}
static double gmmk_coro(void *p, long k, csx_run *r) {
  gmm_ctx *c = p;
  return csx_coro_gmm(k, r, c->d, c->k, c->n, c->alphas, c->means, c->icf, c->x,
                      c->gamma, c->m);
}

/*--- capsule chains --------------------------------------------------------*/

/* The capsules of one chain, newest last; sized before timing starts. */
static capsule_t **chain;
static long chain_cap;

/* Runs k's computation in segments of K steps: each segment resumes the
 * newest capsule and leaves a new one, as a scheduler that preempts every K
 * steps and may come back to any of them would. All are released, newest
 * first. With result, the last capsule is also resumed to the end (not done
 * when timing) to fetch the return value. Returns the number of capsules,
 * i.e. of yields. */
static long capsule_chain(const study_kernel *k, uint64_t K, double *result) {
  long n = 0;
  capsule_t *c = k->interrupt(k->ctx, K);
  while (c) {
    if (n == chain_cap) {
      fprintf(stderr, "coro-study: capsule chain longer than %ld\n", chain_cap);
      exit(2);
    }
    chain[n++] = c;
    c = capsule_resume_for(c, K);
  }
  if (result && n)
    capsule_resume(chain[n - 1], result);
  for (long i = n; i-- > 0;)
    capsule_release(chain[i]);
  return n;
}

/*--- timing ----------------------------------------------------------------*/

static const study_kernel *cur;
static uint64_t cur_K;    /* Capsule's segment length */
static long cur_Kc;       /* the coroutine's */
static capsule_t *cur_c0; /* a capsule at step 0 (snapshot runs) */

static void t_plain(void *p) { bench_sink = cur->plain(p); }
static void t_cxx(void *p) { bench_sink = cur->cxx_plain(p); }
static void t_primops(void *p) { bench_sink = (double)cur->primops(p); }
static void t_snapshot(void *p) {
  double r;
  (void)p;
  capsule_resume(cur_c0, &r);
  bench_sink = r;
}
static void t_chain(void *p) {
  (void)p;
  bench_sink = (double)capsule_chain(cur, cur_K, NULL);
}
static void t_coro(void *p) { bench_sink = cur->coro(p, 0, NULL); }
static void t_coro_k(void *p) { bench_sink = cur->coro(p, cur_Kc, NULL); }

/* Median of the per-run ratios of f to base, timed in interleaved pairs;
 * base's median time in *base_s. */
static double ratio_of(void (*base)(void *), void (*f)(void *),
                       double *base_s) {
  bench_result r = bench_measure(base, f, cur->ctx);
  if (base_s)
    *base_s = r.primal_s;
  return r.ratio;
}

enum { NK = 3 };
static const uint64_t Ks[NK] = {1000, 10000, 100000};

typedef struct kernel_figures {
  uint64_t steps;
  long coro_steps;
  double plain_ms, cxx, inst, snap, coro;
  long cap_yields[NK], coro_yields[NK];
  double cap_rt_ns[NK], cap_rt_snap_ns[NK], coro_rt_ns[NK];
} kernel_figures;

static int check(const char *label, const char *what, double got, double want) {
  if (got == want)
    return 0;
  printf("%s: %s computes %.17g, plain primal %.17g: FAILED\n", label, what,
         got, want);
  return 1;
}

static int study(const study_kernel *k, kernel_figures *f) {
  int fails = 0;
  cur = k;
  double want = k->plain(k->ctx);
  if (k->original)
    fails +=
        check(k->label, "bench/*_objective.inc", k->original(k->ctx), want);
  fails += check(k->label, "plain C++", k->cxx_plain(k->ctx), want);
  f->steps = k->primops(k->ctx);
  csx_run run;
  fails += check(k->label, "coroutine (never yielding)",
                 k->coro(k->ctx, 0, &run), want);
  f->coro_steps = run.steps;
  if (run.yields != 0) {
    printf("%s: the unlimited coroutine run yielded\n", k->label);
    fails++;
  }
  chain_cap = (long)(f->steps / Ks[0]) + 64;
  chain = realloc(chain, sizeof(capsule_t *) * (size_t)chain_cap);
  if (!chain)
    exit(2);
  long coro_K[NK];
  for (int i = 0; i < NK; i++) {
    char what[64];
    double r = 0;
    f->cap_yields[i] = capsule_chain(k, Ks[i], &r);
    snprintf(what, sizeof what, "Capsule every %llu steps",
             (unsigned long long)Ks[i]);
    if (f->cap_yields[i])
      fails += check(k->label, what, r, want);
    capsule_interrupt_stats_t st;
    capsule_get_interrupt_stats(&st);
    if (f->cap_yields[i] && st.last_run_steps != f->steps) {
      printf("%s: %s ends after %llu steps, not %llu: FAILED\n", k->label, what,
             (unsigned long long)st.last_run_steps,
             (unsigned long long)f->steps);
      fails++;
    }
    coro_K[i] =
        (long)((double)Ks[i] * (double)f->coro_steps / (double)f->steps + 0.5);
    if (coro_K[i] < 1)
      coro_K[i] = 1;
    snprintf(what, sizeof what, "coroutine every %ld steps", coro_K[i]);
    fails += check(k->label, what, k->coro(k->ctx, coro_K[i], &run), want);
    f->coro_yields[i] = run.yields;
  }
  if (fails)
    return fails;

  /* Whole runs against the plain primal. */
  double plain_s;
  f->cxx = ratio_of(t_plain, t_cxx, &plain_s);
  f->plain_ms = 1e3 * plain_s;
  f->inst = ratio_of(t_plain, t_primops, NULL);
  f->coro = ratio_of(t_plain, t_coro, NULL);
  cur_c0 = k->interrupt(k->ctx, 0);
  f->snap = ratio_of(t_plain, t_snapshot, NULL);
  capsule_release(cur_c0);
  /* The cost of a yield: interrupted runs against uninterrupted runs of the
   * same variant, paired, so drift cancels. For Capsule also net of what a
   * single live capsule costs (the snapshot run): the rest is what making,
   * resuming and releasing one capsule per segment adds. */
  double snap_extra_s = (f->snap - f->inst) * plain_s;
  for (int i = 0; i < NK; i++) {
    double base_s;
    long y = f->cap_yields[i];
    cur_K = Ks[i];
    double r = ratio_of(t_primops, t_chain, &base_s);
    f->cap_rt_ns[i] = y ? 1e9 * (r - 1) * base_s / (double)y : NAN;
    f->cap_rt_snap_ns[i] =
        y ? f->cap_rt_ns[i] - 1e9 * snap_extra_s / (double)y : NAN;
    y = f->coro_yields[i];
    cur_Kc = coro_K[i];
    r = ratio_of(t_coro, t_coro_k, &base_s);
    f->coro_rt_ns[i] = y ? 1e9 * (r - 1) * base_s / (double)y : NAN;
  }
  fprintf(stderr, "  %s done\n", k->label);
  return 0;
}

int main(void) {
  int fails = 0;
  enum { NKERN = 6 };
  study_kernel ks[NKERN];
  kernel_figures fs[NKERN];
  memset(fs, 0, sizeof fs);

  rotation_ctx rot;
  rotation_setup(&rot, 1000, 53, 3.0);
  rk4_ctx rk;
  rk4_setup(&rk, 10, 1000, 0.01, 0xb7e151628aed2a6bULL);
  tree_ctx tr;
  tr.n = bench_opaque(1L << 18);
  tr.x = bench_alloc(tr.n);
  bench_rng rng = bench_rng_seed(0x9e3779b97f4a7c15ULL);
  for (long i = 0; i < tr.n; i++)
    tr.x[i] = bench_normal(&rng);
  volatile double spin_limit = 2e6;
  spin_ctx sp = {spin_limit};
  gmm_ctx g;
  gmm_setup(&g, 10, 25, 1000, 0x9e3779b97f4a7c15ULL);

  ks[0] = (study_kernel){"rotation n=1000 l=53", &rot,         rotation_plain,
                         rotation_eval,          rotation_cxx, rotation_primops,
                         rotation_interrupt,     rotation_coro};
  ks[1] = (study_kernel){"rk4 n=10 steps=1000",
                         &rk,
                         rk4k_plain,
                         rk4_eval,
                         rk4k_cxx,
                         rk4k_primops,
                         rk4k_interrupt,
                         rk4k_coro};
  ks[2] = (study_kernel){"rk4_calls (rhs callee)",
                         &rk,
                         rk4c_plain,
                         rk4_eval,
                         rk4c_cxx,
                         rk4c_primops,
                         rk4c_interrupt,
                         rk4c_coro};
  ks[3] = (study_kernel){
      "tree n=2^18 leaf=8", &tr,      tree_plain, NULL, tree_cxx, tree_primops,
      tree_interrupt,       tree_coro};
  ks[4] = (study_kernel){"gmm d=10 k=25 n=1000",
                         &g,
                         gmmk_plain,
                         gmm_eval,
                         gmmk_cxx,
                         gmmk_primops,
                         gmmk_interrupt,
                         gmmk_coro};
  ks[5] = (study_kernel){
      "spin (no stores)", &sp,          spin_plain,     NULL,
      spin_cxx,           spin_primops, spin_interrupt, spin_coro};

  /* One child process per kernel: the runtime keeps the journal's tables at
   * the size the largest chain so far needed, and clearing them is part of
   * every round trip, so kernels measured in one process would pay for each
   * other's history. */
  for (int i = 0; i < NKERN; i++) {
    int fd[2];
    if (pipe(fd) != 0) {
      perror("coro-study: pipe");
      return 2;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
      perror("coro-study: fork");
      return 2;
    }
    if (pid == 0) {
      close(fd[0]);
      int f = study(&ks[i], &fs[i]);
      if (!f && write(fd[1], &fs[i], sizeof fs[i]) != (ssize_t)sizeof fs[i])
        f = 1;
      fflush(stdout);
      _exit(f != 0);
    }
    close(fd[1]);
    int status;
    ssize_t got = read(fd[0], &fs[i], sizeof fs[i]);
    close(fd[0]);
    waitpid(pid, &status, 0);
    if (got != (ssize_t)sizeof fs[i] || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
      fails++;
  }
  if (fails) {
    printf("coro-study: %d kernel(s) failed: a variant does not reproduce "
           "the plain primal\n",
           fails);
    return 1;
  }

  printf("Never interrupted: median time / plain C -O2 primal\n\n");
  printf("| kernel | steps (Capsule) | plain C ms | plain C++ | Capsule "
         "instrumented | coroutine | Capsule, capsule live |\n");
  printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  for (int i = 0; i < NKERN; i++)
    printf("| %s | %.2f M | %.3f | %.2f | %.2f | %.2f | %.2f |\n", ks[i].label,
           1e-6 * (double)fs[i].steps, fs[i].plain_ms, fs[i].cxx, fs[i].inst,
           fs[i].coro, fs[i].snap);
  printf("\nInterrupted every K steps: yields, and the extra time per yield "
         "(ns)\n\n");
  printf("| kernel | K | Capsule yields | Capsule ns/yield | ... minus "
         "snapshot run | coroutine yields | coroutine ns/yield |\n");
  printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  for (int i = 0; i < NKERN; i++)
    for (int j = 0; j < NK; j++)
      printf("| %s | %llu | %ld | %.0f | %.0f | %ld | %.0f |\n", ks[i].label,
             (unsigned long long)Ks[j], fs[i].cap_yields[j], fs[i].cap_rt_ns[j],
             fs[i].cap_rt_snap_ns[j], fs[i].coro_yields[j],
             fs[i].coro_rt_ns[j]);

  rotation_free(&rot);
  rk4_free(&rk);
  free(tr.x);
  gmm_free(&g);
  free(chain);
  return 0;
}
