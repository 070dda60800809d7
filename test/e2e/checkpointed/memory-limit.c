// CAPSULE_MEMORY_LIMIT (or capsule_config_memory_limit) bounds the tape and
// snapshots of a checkpointed gradient: the driver measures a step's tape
// and a snapshot's size and picks d and alpha to fit. The gradient is the
// plain one (bit for bit: the same arithmetic in the same order), and the
// tape the driver reports stays under the limit. A limit nothing fits in
// stops the program before the schedule starts; a program whose first steps
// tape much less than its later ones (the estimate's weak point) stops when
// a stage outgrows its share, with a message.
// RUN: %clang -O2 -g %capsule_cflags %s -o %t %capsule_ldflags
// RUN: env CAPSULE_MEMORY_LIMIT=256K CAPSULE_STATS=1 CAPSULE_TRACE=%t.trace %t 2>&1 | FileCheck %s --check-prefix=FIT
// The trace shows the probe after PRIMOPS, and its picture draws it.
// RUN: head -4 %t.trace | FileCheck %s --check-prefix=PROBE
// RUN: python3 %src_root/tools/draw-schedule.py %t.trace -o %t.svg
// RUN: grep -c 'class="probe"' %t.svg | FileCheck %s --check-prefix=ONE-PROBE
// RUN: env CAPSULE_STATS=1 %t api 2>&1 | FileCheck %s --check-prefix=API
// RUN: env CAPSULE_MEMORY_LIMIT=64 not %t 2>&1 | FileCheck %s --check-prefix=TOO-SMALL
// RUN: env CAPSULE_MEMORY_LIMIT=256K not %t late 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: env CAPSULE_MEMORY_LIMIT=256K CAPSULE_SNAPSHOTS=3 not %t 2>&1 | FileCheck %s --check-prefix=CONTRADICTION
// The limit makes the default strategy binary; online, asked for, has no
// count to fit it to.
// RUN: env CAPSULE_MEMORY_LIMIT=256K CAPSULE_STRATEGY=online %t > %t.online 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=ONLINE < %t.online
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../include/check.h"

enum { N = 32, SWEEPS = 1000, WARMUP = 200000 };

static long warmup_rounds;

// With warmup_rounds > 0, a long stretch of integer work that tapes
// nothing comes first.
double f(double *x, int n) {
  long h = 1;
  for (long r = 0; r < warmup_rounds; r++)
    h = (h * 6364136223846793005L + 1442695040888963407L) >> 1;
  // Close to the identity map, so finite differences stay accurate.
  for (int r = 0; r < SWEEPS; r++)
    for (int i = 0; i < n; i++)
      x[i] += 0.002 * sin(x[(i + 1) % n] * x[i]);
  double s = (double)(h & 1);
  for (int i = 0; i < n; i++)
    s += x[i] * (1 + i);
  return s;
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, N);
}

static void expect(const char *what, int holds) {
  check_close(what, holds, 1, 0, 0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "api"))
    capsule_config_memory_limit(256 << 10);
  if (!strcmp(mode, "late"))
    warmup_rounds = WARMUP;
  double x0[N], x[N], dx[N] = {0}, xp[N], dxp[N] = {0};
  for (int i = 0; i < N; i++)
    x0[i] = 0.05 * i - 0.4;
  memcpy(xp, x0, sizeof xp);
  __capsule_autodiff((void *)f, capsule_dup, xp, dxp, capsule_const, N);
  capsule_stats_t plain;
  capsule_get_stats(&plain);
  memcpy(x, x0, sizeof x);
  __capsule_autodiff_checkpointed((void *)f, capsule_dup, x, dx,
                                  capsule_const, N);
  capsule_stats_t checkpointed;
  capsule_get_stats(&checkpointed);
  // The plain gradient is the reference (itself checked against finite
  // differences); the limit must have mattered.
  check_grad_fd("plain dx", dxp, f_fd, 0, x0, N);
  for (int i = 0; i < N; i++)
    check_cf("dx", dx[i], dxp[i]);
  check_cf("x after the gradient", x[N - 1], xp[N - 1]);
  expect("plain tape over the limit", plain.last_tape_bytes > 256 << 10);
  expect("checkpointed tape under the limit",
         checkpointed.last_tape_bytes < 256 << 10);
  return check_report();
}

// FIT: capsule: checkpointed gradient of f: {{[0-9]+}} primal steps, binary-bisection, alpha {{[0-9]+}}, d {{[1-9][0-9]*}}, t
// FIT: capsule: memory limit 256.0 KiB: tape budgeted at {{[0-9]+}} bytes per step, a snapshot at most {{.*}}
// FIT: PASS
// API: capsule: memory limit 256.0 KiB
// API: PASS
// TOO-SMALL: capsule: error: the checkpointed gradient of f cannot fit in the memory limit of 64 B (CAPSULE_MEMORY_LIMIT or capsule_config_memory_limit)
// LATE: capsule: error: the checkpointed gradient of f exceeds the memory limit of 256.0 KiB: a stage of {{[0-9]+}} steps taped
// CONTRADICTION: CAPSULE_MEMORY_LIMIT picks d and {{.*}}CAPSULE_SNAPSHOTS
// ONLINE: capsule: conflicting checkpoint settings: CAPSULE_MEMORY_LIMIT fits d and α to the steps a first run counts, but CAPSULE_STRATEGY asks for the online schedule, which has no counting run; drop one of them
// ONLINE-NOT: PASS
// PROBE:      gradient n=[[N:[0-9]+]] unit=steps strategy=binary split=bisection
// PROBE-NEXT: snapshot 0 0
// PROBE-NEXT: primal 0 [[N]]
// PROBE-NEXT: probe 0 {{[0-9]+}}
// ONE-PROBE: {{^1$}}
