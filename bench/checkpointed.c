/*===- checkpointed.c - Benchmark: checkpointed vs plain reverse mode -----===*
 *
 * The rotation example of Siskind & Pearlmutter (2018), Fig. 8, with the
 * authors' parameters (n = 1000, phi = 3, l in {53, 101, 211, 401, 809,
 * 1601, 3203}; more l on the command line): time and peak RSS of the primal,
 * the plain gradient (while its tape fits in 8 GiB) and the checkpointed
 * gradient (default configuration, or whatever CAPSULE_* settings are in
 * the environment). The plain gradient
 * is first checked against the complex-step derivative. Each measurement
 * runs in a child process of its own, so that its peak RSS is its own. The
 * checkpointed gradient is compared with the plain one (largest relative
 * difference, and whether they are bit-identical).
 *
 * A second table does the same for the Hessian-vector product along a fixed
 * direction v: forward mode over the plain gradient and over the
 * checkpointed one (Forward/CheckpointedTangents.cpp), each in a child. A
 * third compares the online schedule with the offline binary one and its
 * counting run (docs/checkpointing.md, "Online checkpointing").
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "rotation_bench.h"

#include <capsule/capsule.h>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

enum mode {
  PRIMAL,
  PLAIN,
  CHECKPOINTED,
  HVP_PLAIN,
  HVP_CHECKPOINTED,
  ONLINE,
  OFFLINE
};
static const char *const mode_name[] = {
    "primal",           "plain",  "checkpointed", "hvp plain",
    "hvp checkpointed", "online", "offline"};

static void checkpointed_gradient(rotation_ctx *c) {
  memset(c->d_x0, 0, sizeof(double) * (size_t)c->n);
  memset(c->d_work, 0, sizeof(double) * (size_t)c->n);
  __capsule_autodiff_checkpointed_v((void *)rotation_objective, capsule_dup,
                                    c->x0, c->d_x0, capsule_dup, c->work,
                                    c->d_work, capsule_const, c->n,
                                    capsule_const, c->l, capsule_const, c->phi);
}

/* The gradients whose tangents are the Hessian-vector products. */
static void plain_gradient_of(const double *x0, double *d_x0, double *work,
                              double *d_work, long n, long l, double phi) {
  __capsule_autodiff_v((void *)rotation_objective, capsule_dup, x0, d_x0,
                       capsule_dup, work, d_work, capsule_const, n,
                       capsule_const, l, capsule_const, phi);
}
static void checkpointed_gradient_of(const double *x0, double *d_x0,
                                     double *work, double *d_work, long n,
                                     long l, double phi) {
  __capsule_autodiff_checkpointed_v(
      (void *)rotation_objective, capsule_dup, x0, d_x0, capsule_dup, work,
      d_work, capsule_const, n, capsule_const, l, capsule_const, phi);
}

/* H v into hv, along v[k] = cos(k); the gradient goes to c->d_x0. */
static void hessian_vector(rotation_ctx *c, int checkpointed, double *hv) {
  size_t bytes = sizeof(double) * (size_t)c->n;
  double *v = bench_alloc(c->n), *t_work = bench_alloc(c->n),
         *t_d_work = bench_alloc(c->n);
  for (long k = 0; k < c->n; k++)
    v[k] = cos((double)k);
  memset(c->d_x0, 0, bytes);
  memset(c->d_work, 0, bytes);
  memset(hv, 0, bytes);
  memset(t_d_work, 0, bytes);
  if (checkpointed)
    __capsule_fwddiff((void *)checkpointed_gradient_of, capsule_dup, c->x0, v,
                      capsule_dup, c->d_x0, hv, capsule_dup, c->work, t_work,
                      capsule_dup, c->d_work, t_d_work, capsule_const, c->n,
                      capsule_const, c->l, capsule_const, c->phi);
  else
    __capsule_fwddiff((void *)plain_gradient_of, capsule_dup, c->x0, v,
                      capsule_dup, c->d_x0, hv, capsule_dup, c->work, t_work,
                      capsule_dup, c->d_work, t_d_work, capsule_const, c->n,
                      capsule_const, c->l, capsule_const, c->phi);
  free(v);
  free(t_work);
  free(t_d_work);
}

typedef struct {
  enum mode m;
  long n, l;
  double phi;
  double *out;
} measurement;

/* One run of one mode of one size; its gradient goes to `out`. */
static double one_run(void *p) {
  measurement *w = p;
  rotation_ctx c;
  rotation_setup(&c, w->n, w->l, w->phi);
  int hvp = w->m == HVP_PLAIN || w->m == HVP_CHECKPOINTED;
  double *hv = hvp ? bench_alloc(w->n) : NULL;
  double t0 = bench_now();
  if (w->m == PRIMAL)
    rotation_primal(&c);
  else if (w->m == PLAIN)
    rotation_gradient(&c);
  else if (w->m == CHECKPOINTED)
    checkpointed_gradient(&c);
  else if (w->m == ONLINE || w->m == OFFLINE) {
    capsule_config_strategy(w->m == ONLINE ? "online" : "binary");
    checkpointed_gradient(&c);
  } else
    hessian_vector(&c, w->m == HVP_CHECKPOINTED, hv);
  double t = bench_now() - t0;
  if (w->m != PRIMAL)
    memcpy(w->out, hv ? hv : c.d_x0, sizeof(double) * (size_t)w->n);
  free(hv);
  rotation_free(&c);
  return t;
}

/* Runs one mode of one size in a child; its gradient goes to `out`. */
static bench_child_measurement measure(enum mode m, long n, long l, double phi,
                                       double *out) {
  measurement w = {m, n, l, phi, out};
  bench_child_measurement r;
  if (!bench_in_child(one_run, &w, &r)) {
    printf("%s l=%ld failed\n", mode_name[m], l);
    exit(1);
  }
  return r;
}

/* The plain gradient tapes about 31 KB per inner iteration (3.4 GB at
 * l = 12809); beyond 8 GiB of tape it is not run, and the checkpointed
 * gradient is not compared (it is at every smaller l). */
static const long max_plain_inner_iterations = 270000;

/* Largest relative difference between a and b, and whether they are
 * bit-identical. */
static double max_rel_diff(const double *a, const double *b, long n,
                           int *identical) {
  double diff = 0;
  *identical = 1;
  for (long j = 0; j < n; j++) {
    diff = fmax(diff, fabs(a[j] - b[j]) / fmax(fabs(a[j]), 1e-300));
    *identical &= a[j] == b[j];
  }
  return diff;
}

/* One table: for each l, the primal, then mode `ckpt_mode` and, while its
 * tape (tape_factor times the gradient's) fits, `plain_mode`, compared
 * value by value. */
static void table(enum mode plain_mode, enum mode ckpt_mode, long tape_factor,
                  const long *ls, int count, long n, double phi, double *plain,
                  double *ckpt) {
  printf("%6s %12s | %9s %8s | %9s %8s | %9s %8s | %7s %7s %9s %s\n", "l",
         "inner iters", "primal s", "RSS", "plain s", "RSS", "ckpt s", "RSS",
         "plain/p", "ckpt/p", "ckpt-p MB", "max rel diff");
  for (int i = 0; i < count; i++) {
    long l = ls[i], inner = rotation_total_inner(l, phi);
    bench_child_measurement p = measure(PRIMAL, n, l, phi, NULL);
    bench_child_measurement k = measure(ckpt_mode, n, l, phi, ckpt);
    printf("%6ld %12ld | %9.4f %8.1f | ", l, inner, p.seconds, p.maxrss_mib);
    if (tape_factor * inner > max_plain_inner_iterations) {
      printf("%9s %8s | %9.4f %8.1f | %7s %7.2f %9.1f (plain skipped: its "
             "tape would exceed 8 GiB)\n",
             "-", "-", k.seconds, k.maxrss_mib, "-", k.seconds / p.seconds,
             (k.maxrss_mib - p.maxrss_mib) * 1.048576);
      fflush(stdout);
      continue;
    }
    bench_child_measurement g = measure(plain_mode, n, l, phi, plain);
    int identical;
    double diff = max_rel_diff(plain, ckpt, n, &identical);
    printf("%9.4f %8.1f | %9.4f %8.1f | %7.2f %7.2f %9.1f %.3g%s\n", g.seconds,
           g.maxrss_mib, k.seconds, k.maxrss_mib, g.seconds / p.seconds,
           k.seconds / p.seconds, (k.maxrss_mib - p.maxrss_mib) * 1.048576,
           diff, identical ? " (bit-identical)" : "");
    fflush(stdout);
  }
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The online schedule (the default) against the offline binary one with
 * its counting run, in alternate children: median seconds and the largest
 * peak RSS of `runs` each. */
static void online_table(const long *ls, int count, long n, double phi,
                         double *online, double *offline) {
  enum { runs = 7 };
  printf("%6s | %9s %8s | %9s %8s | %13s %s\n", "l", "online s", "RSS",
         "offline s", "RSS", "online/offl.", "max rel diff");
  for (int i = 0; i < count; i++) {
    double t[2][runs], rss[2] = {0, 0};
    for (int r = 0; r < runs; r++)
      for (int k = 0; k < 2; k++) {
        bench_child_measurement m = measure(k ? OFFLINE : ONLINE, n, ls[i], phi,
                                            k ? offline : online);
        t[k][r] = m.seconds;
        rss[k] = fmax(rss[k], m.maxrss_mib);
      }
    qsort(t[0], runs, sizeof(double), by_value);
    qsort(t[1], runs, sizeof(double), by_value);
    int identical;
    double diff = max_rel_diff(offline, online, n, &identical);
    printf("%6ld | %9.4f %8.1f | %9.4f %8.1f | %13.3f %.3g%s\n", ls[i],
           t[0][runs / 2], rss[0], t[1][runs / 2], rss[1],
           t[0][runs / 2] / t[1][runs / 2], diff,
           identical ? " (bit-identical)" : "");
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  const long n = 1000;
  const double phi = 3.0;
  long ls[32] = {53, 101, 211, 401, 809, 1601, 3203};
  int count = 7;
  for (int i = 1; i < argc && count < 32; i++)
    ls[count++] = atol(argv[i]);
  /* In a child too: the pages it touches would count in every later
   * child's peak RSS. */
  fflush(stdout);
  if (fork() == 0) {
    rotation_ctx check;
    rotation_setup(&check, n, ls[0], phi);
    int fails = rotation_verify(&check, "rotation (plain gradient)");
    fflush(stdout);
    _exit(fails != 0);
  }
  int status;
  if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    printf("gradient check FAILED, no timings reported\n");
    return 1;
  }
  double *plain = mmap(NULL, sizeof(double) * n, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  double *ckpt = mmap(NULL, sizeof(double) * n, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  printf("rotation n=%ld phi=%g; seconds and peak RSS (MiB) per run, each "
         "in its own process\n",
         n, phi);
  table(PLAIN, CHECKPOINTED, 1, ls, count, n, phi, plain, ckpt);
  /* Forward over the plain gradient tapes about twice what it does. */
  printf("\nHessian-vector products (forward mode over the gradient), "
         "v[k] = cos(k)\n");
  table(HVP_PLAIN, HVP_CHECKPOINTED, 2, ls, count, n, phi, plain, ckpt);
  printf("\nThe online schedule against the offline binary one (PRIMOPS, "
         "then the schedule), medians of 7 runs each, in alternate children\n");
  online_table(ls, count, n, phi, plain, ckpt);
  return 0;
}
