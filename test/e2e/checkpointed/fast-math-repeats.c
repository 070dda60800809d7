// A checkpointed gradient of code compiled with -ffast-math: the schedule
// runs the primal again from its capsules, in other functions than the
// first run (the step function, the forward sweeps with and without a
// tape), and each run must take the same control flow. Fast-math flags let
// the optimizer reassociate and contract a sum in one of them (a vectorized
// reduction with fused multiply-adds) and not in another, and an iteration
// that stops when its value repeats exactly then ran a different number of
// times: "did not repeat its computation". The copies made for
// checkpointing compute as written (Support/RepeatableArithmetic.h). The
// checkpointed gradient, under each strategy with short stages, must pass
// the program's check against central differences (it differs from the
// plain gradient, which fast-math lets the optimizer reorder, in the last
// digits, more than check_checkpointed's 1e-12 allows).
// REQUIRES: avx2-fma
// RUN: %clang -O3 -ffast-math -march=x86-64-v3 %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: env CAPSULE_CHECKPOINT_ALL=1 %clang -O3 -ffast-math -march=x86-64-v3 %capsule_cflags %s -o %t.ck %capsule_ldflags -lm
// RUN: env CAPSULE_CHECKPOINT_ALL=1 %clang -O2 -ffast-math %capsule_cflags %s -o %t.ck2 %capsule_ldflags -lm
// RUN: for P in %t.ck %t.ck2; do \
// RUN:   for S in binary treeverse online; do \
// RUN:     env CAPSULE_STRATEGY=$S CAPSULE_LEAF_STEPS=1 $P && \
// RUN:     env CAPSULE_STRATEGY=$S CAPSULE_LEAF_STEPS=40 $P || exit 1; \
// RUN:   done; \
// RUN: done
#include <capsule/capsule.h>
#include <math.h>
#include "../include/check.h"

enum { M = 203 };

/* A fixed point s = (s + t(s) / (1 + t(s)^2)) / 2 of a sum over the data,
 * iterated until it repeats exactly. */
static double fixed_point(const double *x) {
  double a[M];
  for (int i = 0; i < M; i++)
    a[i] = x[i % 4] * (1 + 1e-3 * i) + 1e-7 * sin(i);
  double s = 0.5, previous = 0;
  for (int it = 0; s != previous && it < 200; it++) {
    previous = s;
    double t = 0;
    for (int i = 0; i < M; i++)
      t += exp(-a[i] * a[i] * s) * a[i];
    s = 0.5 * (s + t / (1 + t * t));
  }
  double r = 0;
  for (int i = 0; i < M; i++)
    r += a[i] * s;
  return r;
}

CHECK_FD_OF(fixed_point)

int main(void) {
  double x[4] = {0.3, 0.5, -0.2, 0.7}, dx[4] = {0};
  __capsule_autodiff((void *)fixed_point, capsule_dup, x, dx);
  check_grad_fd("dx", dx, fixed_point_fd, 0, x, 4);
  return check_report();
}
