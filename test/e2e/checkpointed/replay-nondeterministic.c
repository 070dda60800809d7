// Replay of non-deterministic calls: a computation drawing from rand,
// random, drand48 and a generator of its own registered with CAPSULE_REPLAY
// (with hidden static state and a body in this file), and reading clocks.
// (Generators that write through pointers are covered by
// interrupt/replay-resumed-twice.c: gradients refuse library calls handed
// pointers to memory with derivatives.)
// Checkpointed gradients recompute parts of it, and must still equal the
// plain gradient bit for bit (checkpointed.py compares them under several
// schedules with small leaves); both are checked against finite differences
// of the computation with its generators reset to the same state.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <capsule/capsule.h>
#include "check.h"

void __capsule_autodiff_v(void *, ...);

/* A generator with state the journal cannot see (static, written by
   uninstrumented code): registered, so its results are replayed. */
static unsigned long noise_state = 1;
__attribute__((noinline)) double noise(void) {
  noise_state = noise_state * 6364136223846793005ul + 1442695040888963407ul;
  return (double)(noise_state >> 11) / 9007199254740992.0;
}
CAPSULE_REPLAY(noise);

static const double w[4] = {0.5, -1.25, 2.0, 0.75};

double simulate(const double *x, int n, int steps) {
  double s = 0.25;
  for (int k = 0; k < steps; k++) {
    int i = rand() % n;
    double r = drand48() + noise();
    double q = (double)(random() % 1000) / 1000.0;
    s += sin(x[i] * r + s * 0.01) * w[k % 4] + q * x[(i + k) % n];
    if (time(NULL) < 0 || clock() < -1)
      s += 1.0; /* never: clocks are read and replayed, but do not matter */
  }
  return s;
}

enum { N = 3, STEPS = 300 };
static void reset_generators(void) {
  srand(11);
  srandom(12);
  srand48(13);
  noise_state = 1;
}
static double fd(double *x, void *ctx) {
  (void)ctx;
  reset_generators();
  return simulate(x, N, STEPS);
}

int main(void) {
  double x[N] = {0.7, -0.4, 1.1}, dx[N] = {0};
  reset_generators();
  __capsule_autodiff_v((void *)simulate, capsule_dup, x, dx, capsule_const, N,
                       capsule_const, STEPS);
  check_grad_fd("simulate", dx, fd, 0, x, N);
  return check_report();
}
