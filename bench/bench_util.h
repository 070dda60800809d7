/*===- bench_util.h - Timing, inputs and gradient checks for benchmarks -===*
 *
 * Shared by every benchmark program in bench/. Include it FIRST (it sets the
 * feature macro that clock_gettime and getrusage need).
 *
 *   - bench_measure: warm-up, then R interleaved runs of the primal and of the
 *     gradient; reports the median time of each side and the median of the
 *     per-run ratios. R is chosen so one measurement takes about
 *     BENCH_SECONDS (default 1.0) seconds, and is at least 5.
 *   - bench_rng: a fixed-seed 64-bit LCG for all inputs.
 *   - bench_verify: compares reverse-mode gradient components with a
 *     complex-step reference (and prints a central difference as well); see
 *     docs/benchmarks.md for why complex step is the gate;
 *     bench_verify_central, central differences for objectives that call
 *     libraries (BLAS, Eigen) and have no complex-step twin.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_BENCH_UTIL_H
#define CAPSULE_BENCH_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <capsule/capsule.h>

/* Marker with a void result: the benchmarked functions return their
 * objective (seeded with 1.0) and have no `out` arguments, so nothing comes
 * back; every gradient is accumulated into dup shadows. */
void __capsule_autodiff_v(void *fn, ...);
void __capsule_autodiff_checkpointed_v(void *fn, ...);

/* The names the shared gradient functions (<name>_bench.h) call: Capsule's,
 * or Enzyme's when the including file defines BENCH_ENZYME_NAMES first (the
 * GradBench suite, bench/gradbench/, which both tools build; Capsule takes
 * Enzyme's names unchanged). */
#ifdef BENCH_ENZYME_NAMES
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
void __enzyme_autodiff(void *fn, ...);
double __enzyme_fwddiff(void *fn, ...);
#define BENCH_AUTODIFF __enzyme_autodiff
#define BENCH_DUP enzyme_dup
#define BENCH_DUPNONEED enzyme_dupnoneed
#define BENCH_CONST enzyme_const
#else
#define BENCH_AUTODIFF __capsule_autodiff_v
#define BENCH_DUP capsule_dup
#define BENCH_DUPNONEED capsule_dupnoneed
#define BENCH_CONST capsule_const
#endif

#define BENCH_PI 3.14159265358979323846

/* Keeps results alive so the primal runs cannot be optimized away. */
static volatile double bench_sink;

/* A value the optimizer cannot see through: problem sizes are passed through
 * this so neither the primal nor the gradient is specialized to constants. */
static inline long bench_opaque(long v) {
  volatile long t = v;
  return t;
}

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Peak resident set size of the whole process so far, in MiB. */
static inline double bench_maxrss_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0; /* ru_maxrss is in KiB on Linux */
}

/*--- inputs ---------------------------------------------------------------*/

/* Knuth's MMIX LCG; outputs use the high bits only. */
typedef struct bench_rng {
  uint64_t state;
} bench_rng;

static inline bench_rng bench_rng_seed(uint64_t seed) {
  bench_rng r = {seed};
  return r;
}

static inline uint64_t bench_rng_next(bench_rng *r) {
  r->state = r->state * 6364136223846793005ULL + 1442695040888963407ULL;
  return r->state;
}

/* Uniform in [0, 1). */
static inline double bench_uniform(bench_rng *r) {
  return (double)(bench_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Standard normal (Box-Muller, one value per call). */
static inline double bench_normal(bench_rng *r) {
  double u1 = 1.0 - bench_uniform(r); /* (0, 1] */
  double u2 = bench_uniform(r);
  return sqrt(-2.0 * log(u1)) * cos(2.0 * BENCH_PI * u2);
}

/* Uniform integer in [0, n). */
static inline long bench_index(bench_rng *r, long n) {
  return (long)((bench_rng_next(r) >> 33) % (uint64_t)n);
}

/* count zeroed elements of `bytes` bytes each; out of memory, a message
 * naming `what` and exit status 2. */
static inline void *bench_calloc(long count, size_t bytes, const char *what) {
  void *p = calloc((size_t)count, bytes);
  if (!p) {
    fprintf(stderr, "bench: out of memory (%ld %s)\n", count, what);
    exit(2);
  }
  return p;
}

static inline double *bench_alloc(long count) {
  return bench_calloc(count, sizeof(double), "doubles");
}

static inline double complex *bench_alloc_complex(long count) {
  return bench_calloc(count, sizeof(double complex), "complex");
}

static inline int *bench_alloc_ints(long count) {
  return bench_calloc(count, sizeof(int), "ints");
}

/*--- timing ---------------------------------------------------------------*/

typedef struct bench_result {
  double primal_s;    /* median primal time */
  double gradient_s;  /* median gradient time (zeroing shadows + marker) */
  double ratio;       /* median of the per-run gradient/primal ratios */
  double primal_min_s, gradient_min_s; /* fastest runs (load-robust check) */
  int reps;           /* R */
  uint64_t tape_bytes; /* peak tape bytes of the last gradient call */
  double maxrss_mib;  /* peak RSS of the process after the measurement */
} bench_result;

static inline double bench_target_seconds(void) {
  const char *s = getenv("BENCH_SECONDS");
  double v = s ? atof(s) : 1.0;
  return v > 0 ? v : 1.0;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static inline double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
  return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* primal(ctx) evaluates the objective once; gradient(ctx) zeroes the shadows
 * and calls the marker once (or computes one tangent). Both are timed as a
 * whole. */
static inline bench_result bench_measure(void (*primal)(void *),
                                  void (*gradient)(void *), void *ctx) {
  bench_result res;
  capsule_stats_t st;
  capsule_get_stats(&st);
  uint64_t calls_before = st.calls;

  /* Warm-up (caches, page faults, first tape chunks). */
  primal(ctx);
  gradient(ctx);

  /* Choose R from the mean over a few pairs (at least one, at most ~5% of
   * the target time), so one slow outlier does not shrink R. */
  double target = bench_target_seconds();
  long pairs = 0;
  double t0 = bench_now(), elapsed;
  do {
    primal(ctx);
    gradient(ctx);
    pairs++;
    elapsed = bench_now() - t0;
  } while (elapsed < 0.05 * target && pairs < 1000);
  double per_pair = elapsed / (double)pairs;
  long reps = per_pair > 0 ? (long)(target / per_pair) : 100000;
  if (reps < 5)
    reps = 5;
  if (reps > 100000)
    reps = 100000;

  double *tp = bench_alloc(reps), *tg = bench_alloc(reps),
         *ratio = bench_alloc(reps);
  for (long r = 0; r < reps; r++) {
    double a, b, c;
    if (r & 1) { /* alternate the order so neither side always runs first */
      a = bench_now();
      gradient(ctx);
      b = bench_now();
      primal(ctx);
      c = bench_now();
      tg[r] = b - a;
      tp[r] = c - b;
    } else {
      a = bench_now();
      primal(ctx);
      b = bench_now();
      gradient(ctx);
      c = bench_now();
      tp[r] = b - a;
      tg[r] = c - b;
    }
    ratio[r] = tg[r] / tp[r];
  }
  capsule_get_stats(&st);

  res.reps = (int)reps;
  res.primal_min_s = res.gradient_min_s = INFINITY;
  for (long r = 0; r < reps; r++) {
    if (tp[r] < res.primal_min_s)
      res.primal_min_s = tp[r];
    if (tg[r] < res.gradient_min_s)
      res.gradient_min_s = tg[r];
  }
  res.primal_s = bench_median(tp, (int)reps);
  res.gradient_s = bench_median(tg, (int)reps);
  res.ratio = bench_median(ratio, (int)reps);
  /* A tangent is no gradient call and has no tape. */
  res.tape_bytes = st.calls > calls_before ? st.last_tape_bytes : 0;
  res.maxrss_mib = bench_maxrss_mib();
  free(tp);
  free(tg);
  free(ratio);
  return res;
}

/* The time it takes only to move a tape of `bytes` bytes through memory:
 * write it front to back, then read it back to front, as a forward and a
 * reverse sweep do (median of 5, in a buffer faulted in beforehand, as the
 * runtime keeps its tape chunks between calls). A gradient cannot run faster
 * than this; when the tape is far larger than the caches, this floor is
 * what limits gradient/primal. */
static inline double bench_tape_traffic_in_process_s(uint64_t bytes) {
  size_t n = (size_t)(bytes / sizeof(uint64_t));
  if (n == 0)
    return 0.0;
  uint64_t *buf = malloc(n * sizeof(uint64_t));
  if (!buf)
    return NAN;
  memset(buf, 1, n * sizeof(uint64_t));
  double t[5];
  for (int r = 0; r < 5; r++) {
    double t0 = bench_now();
    for (size_t i = 0; i < n; i++)
      buf[i] = i;
    uint64_t sum = 0;
    for (size_t i = n; i-- > 0;)
      sum += buf[i];
    t[r] = bench_now() - t0;
    bench_sink = (double)sum;
  }
  free(buf);
  return bench_median(t, 5);
}

/* The same in a child process, so that its buffer does not count in the
 * peak RSS the benchmark reports. */
static inline double bench_tape_traffic_s(uint64_t bytes) {
  int fd[2];
  double seconds = NAN;
  if (pipe(fd) != 0)
    return NAN;
  pid_t child = fork();
  if (child == 0) {
    seconds = bench_tape_traffic_in_process_s(bytes);
    ssize_t written = write(fd[1], &seconds, sizeof seconds);
    _exit(written == sizeof seconds ? 0 : 1);
  }
  close(fd[1]);
  if (child > 0 && read(fd[0], &seconds, sizeof seconds) != sizeof seconds)
    seconds = NAN;
  close(fd[0]);
  if (child > 0)
    waitpid(child, NULL, 0);
  return seconds;
}

/* A measurement a child process made, and its own peak RSS. */
typedef struct bench_child_measurement {
  double seconds;
  double maxrss_mib;
} bench_child_measurement;

/* Runs measure(ctx), which returns the seconds it measured, in a child
 * process, so that its peak RSS is its own: zero when the child failed. */
static inline int bench_in_child(double (*measure)(void *), void *ctx,
                                 bench_child_measurement *r) {
  int fd[2];
  if (pipe(fd) != 0)
    return 0;
  pid_t pid = fork();
  if (pid == 0) {
    double seconds = measure(ctx);
    _exit(write(fd[1], &seconds, sizeof seconds) == sizeof seconds ? 0 : 2);
  }
  int status;
  struct rusage ru;
  int ok = pid > 0 &&
           read(fd[0], &r->seconds, sizeof r->seconds) == sizeof r->seconds &&
           wait4(pid, &status, 0, &ru) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
  close(fd[0]);
  close(fd[1]);
  r->maxrss_mib = ok ? (double)ru.ru_maxrss / 1024.0 : 0;
  return ok;
}

/* "<label>: <base> X ms, <what> Y ms, <what>/<base> Z (median of R)" (the
 * base is the side measured as the primal: the primal, or the gradient), a
 * second line with the tape and RSS figures, and a third with the time the
 * tape's memory traffic alone takes (left out when there is no tape: forward
 * mode). */
static inline void bench_print_pair(const char *label, const char *base,
                                    const char *what, const bench_result *r) {
  printf("%s: %s %.3f ms, %s %.3f ms, %s/%s %.2f (median of %d)\n", label,
         base, 1e3 * r->primal_s, what, 1e3 * r->gradient_s, what, base,
         r->ratio, r->reps);
  printf("    peak tape %.2f MiB (%llu bytes), peak RSS %.1f MiB; "
         "fastest runs: %s %.3f ms, %s %.3f ms\n",
         (double)r->tape_bytes / (1024.0 * 1024.0),
         (unsigned long long)r->tape_bytes, r->maxrss_mib, base,
         1e3 * r->primal_min_s, what, 1e3 * r->gradient_min_s);
  if (r->tape_bytes) {
    double traffic = bench_tape_traffic_s(r->tape_bytes);
    printf("    tape traffic alone (write it, read it back): %.3f ms = %.2f x "
           "%s\n",
           1e3 * traffic, traffic / r->primal_s, base);
  }
  fflush(stdout);
}

static inline void bench_print_as(const char *label, const char *what,
                                  const bench_result *r) {
  bench_print_pair(label, "primal", what, r);
}

static inline void bench_print(const char *label, const bench_result *r) {
  bench_print_as(label, "gradient", r);
}

/*--- gradient checks ------------------------------------------------------*/

/* Complex step: f'(x) = Im f(x + ih) / h, exact up to rounding for any h
 * small enough that h^2 terms vanish; no subtractive cancellation, so no step
 * to tune. The objectives are compiled a second time over double complex
 * (bench_instantiate.h). The elementary functions below return the value of
 * the complex function to double precision (the h^2 terms are far below an
 * ulp) and are written so the real part is computed by exactly the same
 * libm call as the double version: the reference then follows the primal's
 * floating-point path bit for bit, which matters for the ill-conditioned
 * rotation and Lorenz-96 objectives. */
#define BENCH_CS_STEP 1e-100

static inline double complex bench_cplx(double re, double im) {
  return __builtin_complex(re, im);
}
static inline double complex bench_cs_exp(double complex z) {
  double e = exp(creal(z));
  return bench_cplx(e, e * cimag(z));
}
static inline double complex bench_cs_log(double complex z) {
  return bench_cplx(log(creal(z)), cimag(z) / creal(z));
}
static inline double complex bench_cs_sqrt(double complex z) {
  double s = sqrt(creal(z));
  return bench_cplx(s, cimag(z) / (2.0 * s));
}
static inline double complex bench_cs_cos(double complex z) {
  return bench_cplx(cos(creal(z)), -sin(creal(z)) * cimag(z));
}
static inline double complex bench_cs_sin(double complex z) {
  return bench_cplx(sin(creal(z)), cos(creal(z)) * cimag(z));
}
static inline double complex bench_cs_tanh(double complex z) {
  double t = tanh(creal(z));
  return bench_cplx(t, (1.0 - t * t) * cimag(z));
}
static inline double complex bench_cs_recip(double complex z) {
  double a = creal(z);
  return bench_cplx(1.0 / a, -cimag(z) / (a * a));
}

/* d f / d (*slot) by complex step; *slot is restored. */
static inline double bench_complex_step(double complex (*f)(void *), void *ctx,
                                        double complex *slot) {
  double complex saved = *slot;
  *slot = bench_cplx(creal(saved), BENCH_CS_STEP);
  double d = cimag(f(ctx)) / BENCH_CS_STEP;
  *slot = saved;
  return d;
}

/* Central difference of the double objective with the given step; the
 * divisor is the step actually taken. *slot is restored. */
static inline double bench_central_diff(double (*f)(void *), void *ctx,
                                        double *slot, double step) {
  double x = *slot;
  volatile double xp = x + step, xm = x - step;
  *slot = xp;
  double fp = f(ctx);
  *slot = xm;
  double fm = f(ctx);
  *slot = x;
  return (fp - fm) / (xp - xm);
}

/* Step relative to the magnitude of x, at least rel. */
static inline double bench_rel_step(double x, double rel) {
  return rel * (fabs(x) > 1.0 ? fabs(x) : 1.0);
}

typedef struct bench_sample {
  const char *array; /* which dup argument */
  long index;
  double ad;  /* reverse mode (the shadow after one gradient call) */
  double ref; /* complex-step reference */
  double fd;  /* central difference (informational) */
} bench_sample;

/* The largest |got_i - want_i| / max(|want_i|, floor) over i < n, or NaN
 * if any of them is not a number: how far one mode's values are from
 * another's that must equal them. */
static inline double bench_worst_rel_diff(const double *got,
                                          const double *want, long n,
                                          double floor) {
  double worst = 0;
  for (long i = 0; i < n; i++) {
    double rel = fabs(got[i] - want[i]) /
                 (fabs(want[i]) > floor ? fabs(want[i]) : floor);
    worst = rel > worst || rel != rel ? rel : worst;
  }
  return worst;
}

/* Components are judged by |ad - ref| / max(|ref|, 1e-3 * max_j |ref_j|):
 * plain relative error, except that a component more than 1000x smaller
 * than the largest checked one is measured against 1/1000 of that (its own
 * rounding noise can be larger than 1e-5 of itself). Fails on any
 * non-finite value and when every reference component is zero. Returns the
 * number of failures. */
static inline int bench_verify(const char *label, const bench_sample *s, int n,
                        double tol) {
  double maxref = 0, fd_dev = 0;
  int fails = 0;
  for (int i = 0; i < n; i++)
    if (fabs(s[i].ref) > maxref)
      maxref = fabs(s[i].ref);
  printf("verify %s: reverse mode vs complex step, tolerance %.0e\n", label,
         tol);
  printf("    %-18s %24s %24s %9s   %s\n", "component", "reverse mode",
         "complex step", "rel.err", "central diff.");
  for (int i = 0; i < n; i++) {
    double denom = fabs(s[i].ref) > 1e-3 * maxref ? fabs(s[i].ref)
                                                    : 1e-3 * maxref;
    double rel = fabs(s[i].ad - s[i].ref) / (denom > 0 ? denom : 1.0);
    int bad = !(rel <= tol) || !isfinite(s[i].ad) || !isfinite(s[i].ref);
    if (maxref > 0 && fabs(s[i].fd - s[i].ref) / maxref > fd_dev)
      fd_dev = fabs(s[i].fd - s[i].ref) / maxref;
    char name[64];
    snprintf(name, sizeof name, "%s[%ld]", s[i].array, s[i].index);
    printf("    %-18s %24.16e %24.16e %9.2e   %.9e%s\n", name, s[i].ad,
           s[i].ref, rel, s[i].fd, bad ? "   <-- FAIL" : "");
    fails += bad;
  }
  if (!(maxref > 0)) {
    printf("    every reference component is zero: the check is vacuous\n");
    fails++;
  }
  printf("    central differences agree with complex step to %.1e of the "
         "largest component (informational)\n",
         fd_dev);
  printf("verify %s: %s\n", label, fails ? "FAILED" : "passed");
  fflush(stdout);
  return fails;
}

/* For objectives without a complex-step twin (library calls: BLAS, Eigen):
 * the reverse-mode components picks[0..n) of d_params, after gradient(ctx),
 * against central differences of eval(ctx) in params, with steps from
 * bench_rel_step. A component off by more than atol + rtol |fd| is printed
 * and counted; returns the number of failures. */
static inline int bench_verify_central(const char *label,
                                       double (*eval)(void *),
                                       void (*gradient)(void *), void *ctx,
                                       double *params, const double *d_params,
                                       const long *picks, int n, double atol,
                                       double rtol) {
  int fails = 0;
  gradient(ctx);
  for (int k = 0; k < n; ++k) {
    long i = picks[k];
    double keep = params[i], h = bench_rel_step(keep, 1e-6);
    params[i] = keep + h;
    double plus = eval(ctx);
    params[i] = keep - h;
    double minus = eval(ctx);
    params[i] = keep;
    double fd = (plus - minus) / (2 * h), got = d_params[i];
    if (fabs(got - fd) > atol + rtol * fabs(fd)) {
      printf("%s: d/dparam[%ld] = %.10g, central differences %.10g\n", label,
             i, got, fd);
      fails++;
    }
  }
  return fails;
}

/* The shadow of a scratch buffer that f overwrites before reading must come
 * back zero: the objective does not depend on the buffer's old contents. */
static inline int bench_verify_zero(const char *label, const char *what,
                             const double *d, long n, double scale,
                             double tol) {
  double mx = 0;
  int nonfinite = 0;
  for (long i = 0; i < n; i++) {
    if (!isfinite(d[i]))
      nonfinite = 1;
    else if (fabs(d[i]) > mx)
      mx = fabs(d[i]);
  }
  int bad = nonfinite || !(mx <= tol * scale);
  printf("verify %s: max |d %s| = %.3e (must be 0: f overwrites it)%s\n",
         label, what, mx, bad ? "   <-- FAIL" : "");
  fflush(stdout);
  return bad;
}

/* Pairs of arrays whose dot products a check sums (one per differentiated
 * input). */
typedef struct bench_dot {
  long n;
  const double *a, *b;
} bench_dot;

/* `value` must equal the sum of the pairs' dot products up to rounding:
 * both are exact derivatives of the same code, summed in different orders,
 * so the tolerance is relative to the sum of the terms' magnitudes. */
static inline int bench_verify_dot(const char *label, const char *value_name,
                                   double value, const char *dot_name,
                                   const bench_dot *p, int count, double tol) {
  double dot = 0, scale = 0;
  for (int k = 0; k < count; k++)
    for (long i = 0; i < p[k].n; i++) {
      dot += p[k].a[i] * p[k].b[i];
      scale += fabs(p[k].a[i] * p[k].b[i]);
    }
  double rel = fabs(value - dot) / (scale > 0 ? scale : 1.0);
  int bad = !(rel <= tol) || !(scale > 0);
  printf("verify %s: %s %.17g, %s %.17g, difference %.1e of the terms' "
         "sum: %s\n",
         label, value_name, value, dot_name, dot, rel,
         bad ? "FAILED" : "passed");
  fflush(stdout);
  return bad;
}

/* Indices to check in an array of n: first, last, and `extra` random ones. */
static inline int bench_pick(bench_rng *r, long n, long *out, int extra) {
  int c = 0;
  out[c++] = 0;
  if (n > 1)
    out[c++] = n - 1;
  for (int i = 0; i < extra && n > 2; i++)
    out[c++] = 1 + bench_index(r, n - 2);
  return c;
}

#endif /* CAPSULE_BENCH_UTIL_H */
