// Stack arrays of variable size in checkpointed code: C99 VLAs in a loop
// body (given back every iteration), at a function's top level, in a
// recursive function and in a scope left early, alloca() and an
// over-aligned alloca, in functions that yield (their frames have a fixed
// size: the arrays live on the heap there). The checkpointed gradient,
// with small leaves so that stages are recomputed from snapshots many
// times, under the default and the other schedules, against the plain
// gradient and central differences, at -O0 and -O2. Also runs of the same
// code interrupted at several points and resumed, bit for bit against the
// plain one.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm
// RUN: env CAPSULE_LEAF_STEPS=20 %t0
// RUN: env CAPSULE_LEAF_STEPS=15 %t2
// RUN: env CAPSULE_LEAF_STEPS=25 CAPSULE_STRATEGY=treeverse CAPSULE_SPLIT=binomial CAPSULE_SNAPSHOTS=3 %t2
// RUN: env CAPSULE_LEAF_STEPS=25 CAPSULE_STRATEGY=binary %t2
#include <alloca.h>
#include <stdint.h>
#include <capsule/capsule.h>
#include "check.h"

#define N 6

/* A VLA per iteration, one over the whole call, and an early exit from a
 * scope holding one. */
static double steps(const double *x, int n, int iters) {
  double state[n];
  for (int i = 0; i < n; i++)
    state[i] = x[i];
  for (int t = 0; t < iters; t++) {
    double tmp[n];
    for (int i = 0; i < n; i++)
      tmp[i] = sin(state[i]) * state[(i + 1) % n];
    for (int i = 0; i < n; i++) {
      double scratch[i + 1];
      for (int j = 0; j <= i; j++)
        scratch[j] = tmp[j] * 0.5;
      if (scratch[0] > 100.0)
        break; /* leaves the scope of scratch early (never taken) */
      state[i] = 0.9 * state[i] + 0.1 * scratch[i];
    }
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += state[i] * state[i];
  return s;
}

/* A VLA in each frame of a recursion. */
static double descend(const double *x, int n, int depth) {
  double local[n];
  for (int i = 0; i < n; i++)
    local[i] = cos(x[i] * (1 + 0.1 * depth));
  if (depth == 0)
    return local[0];
  double below = descend(local, n, depth - 1);
  return below * local[n - 1] + local[depth % n];
}

/* alloca, and alloca aligned to 64 bytes (as Eigen's stack buffers). */
static double buffers(const double *x, int n, int iters) {
  double *a = alloca(sizeof(double) * (size_t)n);
  double *b = __builtin_alloca_with_align(sizeof(double) * (size_t)n, 512);
  for (int i = 0; i < n; i++)
    a[i] = x[i];
  double s = (uintptr_t)b % 64 == 0 ? 0.0 : 1e300;
  for (int t = 0; t < iters; t++) {
    for (int i = 0; i < n; i++)
      b[i] = a[i] * a[(i + 2) % n];
    for (int i = 0; i < n; i++)
      a[i] = 0.5 * a[i] + 0.25 * tanh(b[i]);
  }
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

static double model(const double *x, int n) {
  return steps(x, n, 40) + descend(x, n, 12) + buffers(x, n, 30);
}

static double model_fd(double *x, void *ctx) {
  (void)ctx;
  return model(x, N);
}

int main(void) {
  double x[N] = {0.3, -0.5, 0.8, 0.1, 1.2, -0.9};
  double g[N] = {0}, gc[N] = {0};
  __capsule_autodiff((void *)model, x, g, N);
  __capsule_autodiff_checkpointed((void *)model, x, gc, N);
  check_grad_fd("plain gradient", g, model_fd, NULL, x, N);
  for (int i = 0; i < N; i++)
    check_close("checkpointed against plain", gc[i], g[i], 1e-12, 1e-14);
  /* Interrupted at several steps, each capsule resumed twice to the end. */
  uint64_t total = __capsule_primops((void *)model, x, N);
  CHECK_RESUMED_RUNS(model, model(x, N), total, 7, 5, x, N);
  return check_report();
}
