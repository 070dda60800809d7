/*===- omp-steps.c - Benchmark: checkpointed gradient of OpenMP time steps -===*
 *
 * A simulation whose every time step is a parallel loop: 2048 damped
 * pendulums integrated for 2000 explicit steps, the state (angles and
 * velocities) updated in place by the team (schedule(static); the two
 * parameters shared, read by every iteration: each thread sums their
 * adjoints on its own, Reverse/DeferredAdjoints.cpp), then a reduction of
 * the final energies. The plain gradient tapes every
 *step; the checkpointed one (each region one step of the computation, its
 *team's stores journaled: docs/checkpointing.md, "Parallel regions") keeps one
 * stage's tape and a few snapshots. Reported on 2 threads: primal, plain
 * and checkpointed gradient, their ratios, and each one's peak RSS, each
 * measured in a child process of its own (median of 9 runs after a warm-up)
 * so that its peak RSS is its own; and the checkpointed gradient on 1
 * thread against 2. The plain gradient is checked against central
 * differences first, the checkpointed one against the plain one.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

enum { PENDULUMS = 2048, STEPS = 2000, REPS = 9 };

static double simulate(int n, int steps, double *u, double *v,
                       const double *params) {
  double damping = params[0], h = params[1];
  for (int k = 0; k < steps; ++k) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
      v[i] += h * (-sin(u[i]) - damping * v[i]);
      u[i] += h * v[i];
    }
  }
  double total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (int i = 0; i < n; ++i)
    total += 0.5 * v[i] * v[i] + (1 - cos(u[i]));
  return total;
}

typedef struct {
  int n, steps;
  double *angles, *u, *v, *d_u, *d_v, params[2], d_params[2];
} pendulums;

enum mode { PRIMAL, PLAIN, CHECKPOINTED };
static const char *const mode_name[] = {"primal", "plain gradient",
                                        "checkpointed gradient"};

/* Each run starts from the initial angles at rest. */
static void start(pendulums *c) {
  memcpy(c->u, c->angles, sizeof(double) * (size_t)c->n);
  memset(c->v, 0, sizeof(double) * (size_t)c->n);
}

/* Each gradient too, with zero adjoints. */
static void reset(pendulums *c) {
  start(c);
  memset(c->d_u, 0, sizeof(double) * (size_t)c->n);
  memset(c->d_v, 0, sizeof(double) * (size_t)c->n);
  c->d_params[0] = c->d_params[1] = 0;
}

static void run(enum mode m, pendulums *c) {
  reset(c);
  if (m == PRIMAL)
    bench_sink = simulate(c->n, c->steps, c->u, c->v, c->params);
  else if (m == PLAIN)
    __capsule_autodiff((void *)simulate, capsule_const, c->n, capsule_const,
                       c->steps, capsule_dup, c->u, c->d_u, capsule_dup, c->v,
                       c->d_v, capsule_dup, c->params, c->d_params);
  else
    __capsule_autodiff_checkpointed((void *)simulate, capsule_const, c->n,
                                    capsule_const, c->steps, capsule_dup, c->u,
                                    c->d_u, capsule_dup, c->v, c->d_v,
                                    capsule_dup, c->params, c->d_params);
}

static double eval(void *p) {
  pendulums *c = p;
  start(c);
  return simulate(c->n, c->steps, c->u, c->v, c->params);
}

static void plain_gradient(void *p) { run(PLAIN, p); }

typedef struct {
  enum mode m;
  int threads;
  pendulums *c;
  double *out;
} measurement;

/* Median time of REPS runs after a warm-up; the gradient (angles, then
 * parameters) goes to `out`. */
static double median_of_runs(void *p) {
  measurement *w = p;
  pendulums *c = w->c;
  omp_set_num_threads(w->threads);
  double t[REPS];
  run(w->m, c);
  for (int k = 0; k < REPS; ++k) {
    double t0 = bench_now();
    run(w->m, c);
    t[k] = bench_now() - t0;
  }
  memcpy(w->out, c->d_u, sizeof(double) * (size_t)c->n);
  memcpy(w->out + c->n, c->d_params, sizeof c->d_params);
  return bench_median(t, REPS);
}

/* Mode m on `threads` threads, in a child of its own. */
static bench_child_measurement measure(enum mode m, int threads, pendulums *c,
                                       double *out) {
  measurement w = {m, threads, c, out};
  bench_child_measurement r;
  if (!bench_in_child(median_of_runs, &w, &r)) {
    printf("%s on %d threads failed\n", mode_name[m], threads);
    exit(1);
  }
  return r;
}

/* The gradients go to shared memory, which children write. */
static double *shared_doubles(long count) {
  double *p = mmap(NULL, sizeof(double) * (size_t)count, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    exit(2);
  return p;
}

int main(void) {
  pendulums c = {PENDULUMS, STEPS, 0, 0, 0, 0, 0, {0.05, 0.01}, {0, 0}};
  c.n = (int)bench_opaque(c.n);
  bench_rng r = bench_rng_seed(0x13198a2e03707344ULL);
  c.angles = bench_alloc(c.n);
  c.u = bench_alloc(c.n);
  c.v = bench_alloc(c.n);
  c.d_u = bench_alloc(c.n);
  c.d_v = bench_alloc(c.n);
  for (int i = 0; i < c.n; ++i)
    c.angles[i] = 2 * bench_uniform(&r) - 1;

  char label[96];
  snprintf(label, sizeof label,
           "omp-steps %d pendulums x %d steps (a parallel for per step)", c.n,
           c.steps);
  // Measured first: a child's peak RSS includes what this process holds
  // when it forks (the plain gradient's tape, after the checks below).
  long size = c.n + 2;
  double *plain = shared_doubles(size), *checkpointed = shared_doubles(size),
         *one = shared_doubles(size);
  bench_child_measurement p = measure(PRIMAL, 2, &c, plain);
  bench_child_measurement g = measure(PLAIN, 2, &c, plain);
  bench_child_measurement k = measure(CHECKPOINTED, 2, &c, checkpointed);
  bench_child_measurement k1 = measure(CHECKPOINTED, 1, &c, one);

  omp_set_num_threads(2);
  long picks[] = {0, 1, c.n / 2, c.n - 1};
  if (bench_verify_central(label, eval, plain_gradient, &c, c.angles, c.d_u,
                           picks, 4, 1e-7, 1e-5) ||
      bench_verify_central(label, eval, plain_gradient, &c, c.params,
                           c.d_params, (long[]){0, 1}, 2, 1e-7, 1e-5)) {
    printf("%s: gradient check FAILED, no timings reported\n", label);
    return 1;
  }
  double worst = 0;
  for (long i = 0; i < size; ++i) {
    double scale = fabs(plain[i]) > 1e-300 ? fabs(plain[i]) : 1;
    worst = fmax(worst, fabs(checkpointed[i] - plain[i]) / scale);
    worst = fmax(worst, fabs(one[i] - plain[i]) / scale);
  }
  printf("%s: checkpointed vs plain gradient: largest relative difference "
         "%.2g\n",
         label, worst);
  if (worst > 1e-10) {
    printf("%s: checkpointed gradient differs, no timings reported\n", label);
    return 1;
  }
  printf("%s, 2 threads (median of %d):\n", label, REPS);
  printf("    primal %.3f ms (peak RSS %.1f MiB)\n", 1e3 * p.seconds,
         p.maxrss_mib);
  printf("    plain gradient %.3f ms = %.2f x primal (peak RSS %.1f MiB)\n",
         1e3 * g.seconds, g.seconds / p.seconds, g.maxrss_mib);
  printf("    checkpointed gradient %.3f ms = %.2f x primal, %.2f x plain "
         "(peak RSS %.1f MiB)\n",
         1e3 * k.seconds, k.seconds / p.seconds, k.seconds / g.seconds,
         k.maxrss_mib);
  printf("    checkpointed gradient on 1 thread %.3f ms: speed-up on 2 "
         "threads %.2f\n",
         1e3 * k1.seconds, k1.seconds / k.seconds);
  return 0;
}
