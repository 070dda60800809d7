// A heap block f allocates, fills once, reads many times and frees: at -O2
// the forward sweep postpones the free() to the end of the gradient call and
// the reverse sweep reloads the block instead of taping every read (a tape
// of the reads alone would be 40 passes x 2 reads x n doubles). A block whose
// address leaves f (kept in a global here) is freed as usual and its reads
// are taped. Blocks allocated and freed in every iteration of a loop are
// postponed too, each one its own block.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags -DCHECK_TAPE %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

enum { N = 64, Passes = 40 };

double *escaped;

double f(const double *x, int n) {
  double *w = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    w[i] = sin(x[i]) + 0.1 * x[i];
  double s = 0.0;
  for (int r = 1; r <= Passes; r++)
    for (int i = 0; i < n; i++)
      s += w[i] * w[(i + r) % n] / r;
  for (int r = 0; r < 3; r++) {
    double *t = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
      t[i] = w[i] * x[(i + r) % n];
    for (int i = 0; i < n; i++)
      s += t[i] * t[n - 1 - i];
    free(t);
  }
  free(w);
  double *e = (double *)malloc(2 * sizeof(double));
  escaped = e;
  e[0] = x[0] * x[1];
  e[1] = cos(x[2]);
  s += e[0] * e[1];
  free(e);
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = N;
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.05 * i - 0.001 * i * i;
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, N);
#ifdef CHECK_TAPE
  capsule_stats_t Stats;
  capsule_get_stats(&Stats);
  // Taping the reads of w would take 2 * Passes * N * 8 = 40 KiB.
  printf("tape: %llu bytes\n", (unsigned long long)Stats.last_tape_bytes);
  check_close("tape of reloaded blocks stays small (1 = yes)",
              Stats.last_tape_bytes < 8 * N * 8, 1, 0, 0);
#endif
  return check_report();
}
