/*
 * The experiment of Siskind & Pearlmutter (2018), section 6: the gradient of
 * the Fig. 8 program (n = 1000, phi = 3) under five regimes, one per run:
 *
 *   primal              the function alone, no derivative
 *   plain               reverse mode without checkpointing (the tape holds
 *                       the whole run)
 *   loop-binomial       the classic tools' checkpointing: split points only
 *                       at iterations of the outer loop, treeverse with the
 *                       binomial split and 40 snapshots (the paper's
 *                       Tapenade setting, `c$ad binomial-ckp l+1 40 1`)
 *   binary-bisection    Capsule at arbitrary execution points: binary tree,
 *                       bisection, logarithmic criterion (the paper's own
 *                       checkpoint-*j run)
 *   treeverse-binomial  Capsule at arbitrary execution points with the
 *                       loop-binomial settings otherwise: treeverse,
 *                       binomial split, 40 snapshots
 *
 *   check               the plain gradient against finite differences
 *
 *   paper-fig8 MODE l [n]
 *
 * It prints one line, `mode=... l=... n=... inner=... f=... seconds=...
 * digest=... peak_rss_kib=... tape_bytes=... snapshot_bytes=...`, where
 * seconds is the time of the gradient (or primal) call, digest three
 * weighted sums of the gradient, printed exactly, so that runs of different
 * modes can be compared (sweep.py does), peak_rss_kib the process's peak
 * resident memory, and the last two the peak tape and the peak of all live
 * snapshots' saved bytes. CAPSULE_* settings in the
 * environment (CAPSULE_STATS, CAPSULE_TRACE, ...) apply as usual; those of
 * the schedule are overridden by the mode, except CAPSULE_LEAF_STEPS (the
 * steps α of a stage, 2^20 by default) in the arbitrary-point modes.
 */
#include "../rotation/rotation.h"

#include <capsule/capsule.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void __capsule_autodiff_checkpointed_v(void *fn, ...);
void __capsule_autodiff_v(void *fn, ...);

enum { SNAPSHOTS = 40 }; /* the paper's Tapenade setting */

/* The same function with the outer loop's iterations marked as the only
 * split points (the Fortran pragma's counterpart). */
double rotation_by_iteration(const double *x0, double *x, long n, long l,
                             double phi) {
  long c = floor_3_to_the(phi);
  memcpy(x, x0, n * sizeof(double));
  for (long i = 1; i <= l; i++) {
    capsule_checkpoint_iteration();
    outer_step(x, n, i, l, c);
  }
  return objective(x, n);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The process's peak resident set, in KiB: VmHWM of /proc/self/status,
 * which (unlike getrusage's ru_maxrss) does not include what the parent
 * process held before exec. */
static long peak_rss_kib(void) {
  FILE *status = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (status && fgets(line, sizeof line, status))
    if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
      break;
  if (status)
    fclose(status);
  return kib;
}

static int usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s MODE l [n]\n"
          "  MODE: primal | plain | loop-binomial | binary-bisection | "
          "treeverse-binomial | check\n"
          "  l >= 1 outer iterations, n >= 2 state length (default 1000)\n",
          argv0);
  return 2;
}

/* Sets the schedule of a checkpointed mode; 0 if `mode` is not one. */
static int configure_schedule(const char *mode) {
  if (!strcmp(mode, "loop-binomial") || !strcmp(mode, "treeverse-binomial")) {
    capsule_config_strategy("treeverse");
    capsule_config_split("binomial");
    capsule_config_criterion("space");
    capsule_config_snapshots(SNAPSHOTS);
    if (!strcmp(mode, "loop-binomial")) { /* every iteration is a leaf */
      capsule_config_leaf_steps(0);
      capsule_config_memory_limit(0);
    }
    return 1;
  }
  if (!strcmp(mode, "binary-bisection")) {
    capsule_config_strategy("binary");
    capsule_config_split("bisection");
    capsule_config_criterion("log");
    return 1;
  }
  return 0;
}

/* The gradient of `rotation` at x0 in `mode`, accumulated into dx0. */
static void gradient(const char *mode, const double *x0, double *dx0, double *x,
                     double *dx, long n, long l, double phi) {
  if (!strcmp(mode, "plain"))
    __capsule_autodiff_v((void *)rotation, capsule_dup, x0, dx0, capsule_dup, x,
                         dx, capsule_const, n, capsule_const, l, capsule_const,
                         phi);
  else if (!strcmp(mode, "loop-binomial"))
    __capsule_autodiff_checkpointed_v(
        (void *)rotation_by_iteration, capsule_dup, x0, dx0, capsule_dup, x, dx,
        capsule_const, n, capsule_const, l, capsule_const, phi);
  else
    __capsule_autodiff_checkpointed_v((void *)rotation, capsule_dup, x0, dx0,
                                      capsule_dup, x, dx, capsule_const, n,
                                      capsule_const, l, capsule_const, phi);
}

/* Mode `check`: the plain gradient against central finite differences.
 * The sweep's reference is the plain gradient, so this is what ties it to
 * the function's true derivative. */
static int check_against_finite_differences(double *x0, double *x, long n,
                                            long l, double phi) {
  double *dx0 = calloc(n, sizeof *dx0), *dx = calloc(n, sizeof *dx);
  double *fd = malloc(n * sizeof *fd);
  gradient("plain", x0, dx0, x, dx, n, l, phi);
  double worst = rotation_fd_error(x0, x, dx0, fd, n, l, phi);
  int ok = worst <= rotation_fd_tolerance;
  printf("plain gradient vs finite differences, l = %ld, n = %ld: largest "
         "relative difference %.2e (tolerance %.0e): %s\n",
         l, n, worst, rotation_fd_tolerance, ok ? "OK" : "WRONG");
  free(dx0), free(dx), free(fd);
  return !ok;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4)
    return usage(argv[0]);
  const char *mode = argv[1];
  char *end;
  long l = strtol(argv[2], &end, 10);
  long n = 1000;
  if (*end || (argc == 4 && (n = strtol(argv[3], &end, 10), *end)) || l < 1 ||
      n < 2)
    return usage(argv[0]);
  const double phi = 3;
  int primal = !strcmp(mode, "primal"), check = !strcmp(mode, "check");
  if (!primal && !check && strcmp(mode, "plain") && !configure_schedule(mode))
    return usage(argv[0]);

  double *x0 = malloc(n * sizeof *x0), *dx0 = calloc(n, sizeof *dx0);
  double *x = malloc(n * sizeof *x), *dx = calloc(n, sizeof *dx);
  for (long k = 0; k < n; k++)
    x0[k] = (n - k) / (double)n;
  if (check)
    return check_against_finite_differences(x0, x, n, l, phi);

  /* A gradient leaves x as the computation leaves it, so f is read from
   * there rather than computed by a run of its own. */
  double f, t0 = now();
  if (primal)
    f = rotation(x0, x, n, l, phi);
  else
    gradient(mode, x0, dx0, x, dx, n, l, phi);
  double seconds = now() - t0;
  if (!primal)
    f = objective(x, n);

  long c = floor_3_to_the(phi), inner = 0;
  for (long i = 1; i <= l; i++)
    inner += inner_steps(i, l, c);
  /* Three weighted sums of the gradient, enough to tell two gradients apart
   * without printing n numbers. */
  double digest[3] = {0, 0, 0};
  for (long k = 0; k < n; k++) {
    digest[0] += dx0[k];
    digest[1] += dx0[k] * (k + 1) / n;
    digest[2] += dx0[k] * cos((double)k);
  }
  capsule_stats_t tape;
  capsule_interrupt_stats_t snapshots;
  capsule_get_stats(&tape);
  capsule_get_interrupt_stats(&snapshots);
  printf("mode=%s l=%ld n=%ld inner=%ld f=%.17g seconds=%.6f "
         "digest=%.17g,%.17g,%.17g peak_rss_kib=%ld tape_bytes=%llu "
         "snapshot_bytes=%llu\n",
         mode, l, n, inner, f, seconds, digest[0], digest[1], digest[2],
         peak_rss_kib(), (unsigned long long)tape.peak_tape_bytes,
         (unsigned long long)snapshots.peak_journal_bytes);
  free(x0), free(dx0), free(x), free(dx);
  return 0;
}
