// Interruptible execution: memory allocated and freed in every iteration of
// a loop (a scratch buffer of varying size, and two blocks whose lifetimes
// overlap across iterations), so the allocator reuses the same blocks; the
// per-iteration results and the returned sum must be identical after an
// interruption at any step, and the journal must stay bounded by the
// memory used, not the number of iterations (interrupt_check.h lists the
// checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

double churn(double *out, int iters) {
  double total = 0;
  double *keep = (double *)malloc(4 * sizeof(double));
  for (int k = 0; k < 4; ++k)
    keep[k] = k;
  for (int it = 0; it < iters; ++it) {
    int n = (it % 5 + 1) * 6;
    double *scratch = (double *)malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; ++i)
      scratch[i] = (it + 1) * 0.5 + i * keep[i % 4];
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += scratch[i] * (i & 1 ? -1 : 1);
    free(scratch);
    /* Replace keep by a new block before freeing the old one. */
    double *next = (double *)malloc(4 * sizeof(double));
    for (int k = 0; k < 4; ++k)
      next[k] = keep[(k + 1) % 4] + s * 0.001;
    free(keep);
    keep = next;
    out[it] = s;
    total += s;
  }
  total += keep[0] + keep[3];
  free(keep);
  return total;
}

static double out[60];
static void reset(void) { memset(out, 0, sizeof out); }
DEFINE_RUNNERS(double, churn, out, 60)
static const struct region regions[] = {{out, sizeof out}};

int main(void) {
  struct program p = {
      "heap-alloc-loop", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,     regions,        1,     8192};
  return check_interruptible(&p) != 0;
}
