// The schedule of a checkpointed gradient comes from the environment or the
// capsule_config_* calls; CAPSULE_STATS reports what the driver did; invalid
// and contradictory settings stop the program with a message naming them.
// RUN: %clang -O2 -g %capsule_cflags %s -o %t %capsule_ldflags
// RUN: %t | FileCheck %s --check-prefix=GRAD
// RUN: env CAPSULE_STATS=1 CAPSULE_LEAF_STEPS=50 CAPSULE_STRATEGY=treeverse CAPSULE_SPLIT=binomial CAPSULE_CRITERION=space CAPSULE_SNAPSHOTS=3 %t 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: env CAPSULE_STATS=1 %t api 2>&1 | FileCheck %s --check-prefix=API
// RUN: env CAPSULE_STRATEGY=revolve not %t 2>&1 | FileCheck %s --check-prefix=BAD-STRATEGY
// RUN: env CAPSULE_LEAF_STEPS=-3 not %t 2>&1 | FileCheck %s --check-prefix=BAD-ALPHA
// RUN: env CAPSULE_CRITERION=space CAPSULE_REPS=4 not %t 2>&1 | FileCheck %s --check-prefix=CONTRADICTION
// RUN: not %t bad-api 2>&1 | FileCheck %s --check-prefix=BAD-API
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../include/check.h"

enum { N = 16, REPS = 40 };

double f(double *x, int n) {
  double s = 0;
  for (int r = 0; r < REPS; r++)
    for (int i = 0; i < n; i++) {
      x[i] = sin(x[i]) + 0.01 * r;
      s += x[i] * (1 + i);
    }
  return s;
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, N);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "api")) {
    capsule_config_strategy("TreeVerse");
    capsule_config_split("bisection");
    capsule_config_criterion("time");
    capsule_config_reps(2);
    capsule_config_leaf_steps(100);
  }
  if (argc > 1 && !strcmp(argv[1], "bad-api"))
    capsule_config_split("halves");
  double x0[N], x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x0[i] = 0.05 * i - 0.4;
  memcpy(x, x0, sizeof x);
  __capsule_autodiff_checkpointed((void *)f, capsule_dup, x, dx,
                                  capsule_const, N);
  check_grad_fd("dx", dx, f_fd, 0, x0, N);
  return check_report();
}

// GRAD: PASS
// ENV: capsule: checkpointed gradient of f: {{[0-9]+}} primal steps, treeverse-binomial, alpha 50, d 3, t {{[0-9]+}}; {{[0-9]+}} stages, {{[0-9]+}} recomputed steps, peak {{[1-4]}} live snapshots
// ENV: PASS
// API: capsule: checkpointed gradient of f: {{[0-9]+}} primal steps, treeverse-bisection, alpha {{[0-9]+}}, d {{[0-9]+}}, t 2;
// API: PASS
// BAD-STRATEGY: CAPSULE_STRATEGY{{.*}}revolve{{.*}}binary{{.*}}treeverse
// BAD-ALPHA: CAPSULE_LEAF_STEPS{{.*}}-3
// CONTRADICTION: CAPSULE_REPS
// BAD-API: capsule_config_split{{.*}}halves{{.*}}bisection{{.*}}binomial
