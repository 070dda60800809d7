// Loop-iteration checkpointing: capsule_checkpoint_iteration() at the top of
// the time loop makes its iterations the only split points, one leaf each,
// scheduled with the binomial split under CAPSULE_SNAPSHOTS. The gradient is
// the plain one (itself checked against finite differences); the statistics
// count one step per iteration; elsewhere (the plain gradient, an
// interrupted run) the marker does nothing; configuring alpha is refused.
// RUN: %clang -O2 -g %capsule_cflags %s -o %t %capsule_ldflags
// RUN: env CAPSULE_STATS=1 CAPSULE_SNAPSHOTS=4 CAPSULE_TRACE=%t.trace %t 2>&1 | FileCheck %s --check-prefix=SPACE
// The trace counts iterations, and its picture says so.
// RUN: head -1 %t.trace | FileCheck %s --check-prefix=TRACE
// RUN: python3 %src_root/tools/draw-schedule.py %t.trace -o %t.svg
// RUN: FileCheck %s --check-prefix=SVG < %t.svg
// RUN: env CAPSULE_STATS=1 CAPSULE_STRATEGY=treeverse %t 2>&1 | FileCheck %s --check-prefix=LOG
// RUN: env CAPSULE_STATS=1 %t 2>&1 | FileCheck %s --check-prefix=ONLINE
// RUN: env CAPSULE_LEAF_STEPS=10 not %t 2>&1 | FileCheck %s --check-prefix=ALPHA
// RUN: %clang -O0 -g %capsule_cflags %s -o %t.O0 %capsule_ldflags
// RUN: env CAPSULE_SNAPSHOTS=2 %t.O0 | FileCheck %s --check-prefix=O0
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../include/check.h"

enum { N = 8, STEPS = 60 };

// Each time step does a different amount of work, as in the paper's
// rotation example: the case loop-iteration checkpointing handles worst.
double f(double *x, int n) {
  for (int t = 0; t < STEPS; t++) {
    capsule_checkpoint_iteration();
    int inner = 1 + (t * 7) % 5;
    for (int k = 0; k < inner; k++)
      for (int i = 0; i < n; i++)
        x[i] += 0.01 * sin(x[(i + 1) % n] - x[i] + 0.1 * k);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (1 + i) * x[i] * x[i];
  return s;
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, N);
}

int main(void) {
  double x0[N], x[N], dx[N] = {0}, xp[N], dxp[N] = {0};
  for (int i = 0; i < N; i++)
    x0[i] = 0.3 * i - 1;
  memcpy(xp, x0, sizeof xp);
  __capsule_autodiff((void *)f, capsule_dup, xp, dxp, capsule_const, N);
  check_grad_fd("plain dx", dxp, f_fd, 0, x0, N);
  memcpy(x, x0, sizeof x);
  __capsule_autodiff_checkpointed((void *)f, capsule_dup, x, dx,
                                  capsule_const, N);
  for (int i = 0; i < N; i++)
    check_cf("dx", dx[i], dxp[i]);
  check_cf("x after the gradient", x[0], xp[0]);
  // An interrupted run counts ordinary steps: far more than the iterations.
  memcpy(x, x0, sizeof x);
  uint64_t steps = __capsule_primops((void *)f, x, N);
  check_close("primops counts ordinary steps", steps > 10 * STEPS, 1, 0, 0);
  return check_report();
}

// SPACE: capsule: checkpointed gradient of f: 60 primal steps, binary-binomial, alpha 1, d 4, t {{[0-9]+}}; 60 stages, {{[0-9]+}} recomputed steps, peak {{[1-5]}} live snapshots
// SPACE: PASS
// LOG: capsule: checkpointed gradient of f: 60 primal steps, treeverse-binomial, alpha 1, d {{[0-9]+}}, t {{[0-9]+}}; 60 stages
// LOG: PASS
// ONLINE: capsule: checkpointed gradient of f: 60 primal steps, online-binomial, alpha 1, d {{[0-9]+}}, t {{[0-9]+}}; 60 stages
// ONLINE: PASS
// ALPHA: capsule: conflicting checkpoint settings: CAPSULE_LEAF_STEPS is set, but capsule_checkpoint_iteration() makes every loop iteration one leaf of the schedule
// O0: PASS

// TRACE: gradient n=60 unit=iterations strategy=binary split=binomial d=4 t={{[0-9]+}} alpha=1 root=f
// SVG: iteration →
