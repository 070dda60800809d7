/*===- gradbench.h - Harness of the GradBench task suite ------------------===*
 *
 * The public GradBench tasks (gmm, ba, ht, lstm, ode, llsq, lse, det,
 * kmeans), written here from their public descriptions, each one C program
 * in this folder. bench/gradbench/run.py builds every task with Capsule's
 * plugin (and with an Enzyme plugin when ENZYME_PLUGIN names one), runs
 * them and prints one table; docs/benchmarks.md ("GradBench suite") shows
 * it.
 *
 * A task uses Enzyme's marker names only (__enzyme_autodiff,
 * __enzyme_fwddiff, enzyme_dup, enzyme_const, enzyme_out), which Capsule
 * accepts unchanged, so that the same source is what both tools
 * differentiate. Its main sets up the inputs and returns gradbench_run,
 * which measures memory, checks the derivative against the task's
 * independent reference (complex step or central differences, bench_util.h)
 * before anything is timed, and prints the line the runner reads.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_BENCH_GRADBENCH_H
#define CAPSULE_BENCH_GRADBENCH_H

/* Enzyme's markers (__enzyme_autodiff, __enzyme_fwddiff) and activity
 * names, declared by bench_util.h; both tools know them by name. */
#define BENCH_ENZYME_NAMES 1
#include "../bench_util.h"

/* One call of a function of the task, in a child process, for its peak
 * RSS. */
typedef struct gradbench_call {
  void (*fn)(void *);
  void *ctx;
} gradbench_call;

static inline double gradbench_call_once(void *p) {
  gradbench_call *c = p;
  double t0 = bench_now();
  c->fn(c->ctx);
  return bench_now() - t0;
}

/* Peak RSS (MiB) of a child process that calls fn(ctx) once after the task
 * set it up: the inputs, plus what one call needs. */
static inline double gradbench_rss_mib(void (*fn)(void *), void *ctx) {
  gradbench_call c = {fn, ctx};
  bench_child_measurement m;
  fflush(stdout);
  return bench_in_child(gradbench_call_once, &c, &m) ? m.maxrss_mib : NAN;
}

/* Runs a task whose inputs are set up in ctx: the peak RSS of one call of
 * primal and of derivative, each in a child forked before the parent calls
 * anything (so it counts the inputs and that one call, not what an earlier
 * call left in the parent); then verify(ctx), which checks the derivative
 * against its reference and returns the failures (none: go on); then
 * primal against derivative, timed by bench_measure (alternating,
 * medians). Prints a human-readable report and the line run.py reads:
 *
 *   gradbench task=T size=S derivative=D primal_ms=P derivative_ms=Q
 *     ratio=R primal_rss_mib=A derivative_rss_mib=B
 *
 * (one line; D names what is computed: gradient, jacobian, ...). Returns
 * the exit status for main: 1 when the check failed, with no timings. */
static inline int gradbench_run(const char *task, const char *size,
                                const char *derivative_name,
                                int (*verify)(void *), void (*primal)(void *),
                                void (*derivative)(void *), void *ctx) {
  double primal_rss = gradbench_rss_mib(primal, ctx);
  double derivative_rss = gradbench_rss_mib(derivative, ctx);
  if (verify(ctx)) {
    printf("%s %s: %s check FAILED, no timings reported\n", task, size,
           derivative_name);
    return 1;
  }
  bench_result r = bench_measure(primal, derivative, ctx);
  char label[128];
  snprintf(label, sizeof label, "%s %s", task, size);
  bench_print_as(label, derivative_name, &r);
  printf("gradbench task=%s size=%s derivative=%s primal_ms=%.6f "
         "derivative_ms=%.6f ratio=%.4f primal_rss_mib=%.1f "
         "derivative_rss_mib=%.1f\n",
         task, size, derivative_name, 1e3 * r.primal_s, 1e3 * r.gradient_s,
         r.ratio, primal_rss, derivative_rss);
  fflush(stdout);
  return 0;
}

#endif /* CAPSULE_BENCH_GRADBENCH_H */
