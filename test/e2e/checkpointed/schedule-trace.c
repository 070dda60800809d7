// CAPSULE_TRACE=FILE writes what the checkpointing driver did, one trace per
// gradient call, and tools/draw-schedule.py draws it (docs/schedule-trace.md).
//
// f's schedule, TREEVERSE with the binomial split, d = 2 and α = 2200 on
// about 9600 steps: 5 stages of α are needed, so t = 2 (η(2, 1) = 3 < 5 ≤
// η(2, 2) = 6). MID(δ, τ) puts τ/(δ+τ) of a span, rounded up, left of the
// split, and a run stops at the first yield point (an iteration of f's
// outer loop) at or after it:
//  - [0, n] (δ 2, τ 2) splits at half, A, capsule 1;
//  - [A, n] (δ 1, τ 2) at two thirds, B, capsule 2; [B, n] has no snapshot
//    left: a stage;
//  - [A, B] (δ 1, τ 1) in the middle, C, capsule 3: stages [C, B], [A, C];
//  - [0, A] (δ 2, τ 1) at a third, D, capsule 4; [D, A] (δ 1, τ 1) in the
//    middle, E, capsule 5: stages [E, A], [D, E], then [0, D].
// Every stage spans about n/6, under α. g, shorter than α, is one stage.
// Both calls append to the same file; the gradients are still right.
//
// RUN: %clang -O2 -g %capsule_cflags %s -o %t %capsule_ldflags
// RUN: rm -f %t.trace
// RUN: env CAPSULE_TRACE=%t.trace CAPSULE_STRATEGY=treeverse CAPSULE_SPLIT=binomial CAPSULE_SNAPSHOTS=2 CAPSULE_LEAF_STEPS=2200 %t | FileCheck %s --check-prefix=GRAD
// RUN: FileCheck %s --check-prefix=TRACE --match-full-lines < %t.trace
//
// The drawing: one red and one blue segment per stage.
// RUN: python3 %src_root/tools/draw-schedule.py %t.trace -o %t.svg
// RUN: grep -c 'class="forward"' %t.svg | FileCheck %s --check-prefix=SIX
// RUN: grep -c 'class="reverse"' %t.svg | FileCheck %s --check-prefix=SIX
// RUN: FileCheck %s --check-prefix=SVG < %t.svg
// RUN: python3 %src_root/tools/draw-schedule.py %t.trace -o %t.g.svg --call 2
// RUN: grep -c 'class="forward"' %t.g.svg | FileCheck %s --check-prefix=ONE
// RUN: grep -c 'class="reverse"' %t.g.svg | FileCheck %s --check-prefix=ONE
//
// The online schedule (the default) has no counting run: its first run
// stops after each chunk of α steps (at the next outer iteration) and takes
// a capsule, and when a third span of one length closes, the capsule
// between the two oldest of the three goes: after chunk 3 capsule 1, after
// chunk 5 capsule 3, after chunk 7 capsules 5 and 2 (docs/checkpointing.md,
// "Online checkpointing").
// RUN: rm -f %t.online
// RUN: env CAPSULE_TRACE=%t.online CAPSULE_LEAF_STEPS=1000 CAPSULE_STATS=1 %t 2> %t.online-stats | FileCheck %s --check-prefix=GRAD
// RUN: FileCheck %s --check-prefix=ONLINE --match-full-lines < %t.online
// RUN: python3 %src_root/tools/draw-schedule.py %t.online -o %t.online.svg
// RUN: cat %t.online-stats %t.online.svg | FileCheck %s --check-prefix=ONLINE-STATS
//
// Thousands of stages (every loop header a yield point, α = 1) are drawn
// summarised, in a bounded picture whose caption agrees with CAPSULE_STATS.
// RUN: env CAPSULE_ATOMIC_LOOPS=0 %clang -O2 -g %capsule_cflags %s -o %t.yields %capsule_ldflags
// RUN: env CAPSULE_TRACE=%t.long CAPSULE_LEAF_STEPS=1 CAPSULE_STATS=1 %t.yields long 2> %t.long-stats | FileCheck %s --check-prefix=GRAD
// RUN: python3 %src_root/tools/draw-schedule.py %t.long -o %t.long.svg
// RUN: cat %t.long-stats %t.long.svg | FileCheck %s --check-prefix=LONG
// RUN: test $(wc -l < %t.long.svg) -lt 2500
//
// Settings and input errors: exit status 2 and a message.
// RUN: env CAPSULE_TRACE= %t > %t.empty 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=EMPTY < %t.empty
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env CAPSULE_TRACE=%t.dir %t > %t.unwritable 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=UNWRITABLE < %t.unwritable
// RUN: printf 'gradient n=10 unit=steps strategy=binary split=bisection d=1 t=1 alpha=5 root=f\nsnapshot 0 0\nprimal 0 ten\n' > %t.bad
// RUN: python3 %src_root/tools/draw-schedule.py %t.bad -o %t.bad.svg > %t.bad-out 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=MALFORMED < %t.bad-out
// RUN: python3 %src_root/tools/draw-schedule.py %t.trace -o %t.3.svg --call 3 > %t.call-out 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=NO-CALL < %t.call-out
// RUN: python3 %src_root/tools/draw-schedule.py %t.missing -o %t.missing.svg > %t.missing-out 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=MISSING < %t.missing-out
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../include/check.h"

enum { N = 8, STEPS = 64, LONG_STEPS = 400 };

double f(double *x, int n, int steps) {
  double s = 0;
  for (int r = 0; r < steps; r++)
    for (int i = 0; i < n; i++) {
      // Close to the identity map, so finite differences stay accurate.
      x[i] += 0.01 * sin(x[(i + 1) % n] * x[i]);
      s += x[i] * (1 + i);
    }
  return s;
}

double g(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

static double f_fd(double *x, void *steps) { return f(x, N, *(int *)steps); }

static double g_fd(double *x, void *ctx) {
  (void)ctx;
  return g(x, N);
}

int main(int argc, char **argv) {
  int steps = argc > 1 && !strcmp(argv[1], "long") ? LONG_STEPS : STEPS;
  double x0[N], x[N], dx[N] = {0}, dg[N] = {0};
  for (int i = 0; i < N; i++)
    x0[i] = 0.05 * i - 0.2;
  memcpy(x, x0, sizeof x);
  __capsule_autodiff_checkpointed((void *)f, capsule_dup, x, dx,
                                  capsule_const, N, capsule_const, steps);
  check_grad_fd("df/dx", dx, f_fd, &steps, x0, N);
  memcpy(x, x0, sizeof x);
  __capsule_autodiff_checkpointed((void *)g, capsule_dup, x, dg,
                                  capsule_const, N);
  check_grad_fd("dg/dx", dg, g_fd, 0, x0, N);
  return check_report();
}

// GRAD: PASS

// TRACE:      gradient n=[[N:[0-9]+]] unit=steps strategy=treeverse split=binomial d=2 t=2 alpha=2200 root=f
// TRACE-NEXT: snapshot 0 0
// TRACE-NEXT: primal 0 [[N]]
// TRACE-NEXT: primal 0 [[A:[0-9]+]]
// TRACE-NEXT: snapshot 1 [[A]]
// TRACE-NEXT: primal [[A]] [[B:[0-9]+]]
// TRACE-NEXT: snapshot 2 [[B]]
// TRACE-NEXT: forward [[B]] [[N]]
// TRACE-NEXT: reverse [[B]] [[N]]
// TRACE-NEXT: release 2
// TRACE-NEXT: primal [[A]] [[C:[0-9]+]]
// TRACE-NEXT: snapshot 3 [[C]]
// TRACE-NEXT: forward [[C]] [[B]]
// TRACE-NEXT: reverse [[C]] [[B]]
// TRACE-NEXT: release 3
// TRACE-NEXT: forward [[A]] [[C]]
// TRACE-NEXT: reverse [[A]] [[C]]
// TRACE-NEXT: release 1
// TRACE-NEXT: primal 0 [[D:[0-9]+]]
// TRACE-NEXT: snapshot 4 [[D]]
// TRACE-NEXT: primal [[D]] [[E:[0-9]+]]
// TRACE-NEXT: snapshot 5 [[E]]
// TRACE-NEXT: forward [[E]] [[A]]
// TRACE-NEXT: reverse [[E]] [[A]]
// TRACE-NEXT: release 5
// TRACE-NEXT: forward [[D]] [[E]]
// TRACE-NEXT: reverse [[D]] [[E]]
// TRACE-NEXT: release 4
// TRACE-NEXT: forward 0 [[D]]
// TRACE-NEXT: reverse 0 [[D]]
// TRACE-NEXT: primal 0 [[N]]
// TRACE-NEXT: release 0
// TRACE-NEXT: end
// TRACE-NEXT: gradient n=[[M:[0-9]+]] unit=steps strategy=treeverse split=binomial d=2 t=0 alpha=2200 root=g
// TRACE-NEXT: snapshot 0 0
// TRACE-NEXT: primal 0 [[M]]
// TRACE-NEXT: forward 0 [[M]]
// TRACE-NEXT: reverse 0 [[M]]
// TRACE-NEXT: primal 0 [[M]]
// TRACE-NEXT: release 0
// TRACE-NEXT: end
// TRACE-NOT:  {{.}}

// ONLINE:      gradient n=[[N:[0-9]+]] unit=steps strategy=online split=bisection d={{[0-9]+}} t={{[0-9]+}} alpha=1000 root=f
// ONLINE-NEXT: snapshot 0 0
// ONLINE-NEXT: primal 0 [[C1:[0-9]+]]
// ONLINE-NEXT: snapshot 1 [[C1]]
// ONLINE-NEXT: primal [[C1]] [[C2:[0-9]+]]
// ONLINE-NEXT: snapshot 2 [[C2]]
// ONLINE-NEXT: primal [[C2]] [[C3:[0-9]+]]
// ONLINE-NEXT: snapshot 3 [[C3]]
// ONLINE-NEXT: release 1
// ONLINE-NEXT: primal [[C3]] [[C4:[0-9]+]]
// ONLINE-NEXT: snapshot 4 [[C4]]
// ONLINE-NEXT: primal [[C4]] [[C5:[0-9]+]]
// ONLINE-NEXT: snapshot 5 [[C5]]
// ONLINE-NEXT: release 3
// ONLINE-NEXT: primal [[C5]] [[C6:[0-9]+]]
// ONLINE-NEXT: snapshot 6 [[C6]]
// ONLINE-NEXT: primal [[C6]] [[C7:[0-9]+]]
// ONLINE-NEXT: snapshot 7 [[C7]]
// ONLINE-NEXT: release 5
// ONLINE-NEXT: release 2
// ONLINE:      primal {{[0-9]+}} [[N]]
// ONLINE-NEXT: forward {{[0-9]+}} [[N]]
// ONLINE:      forward 0 {{[0-9]+}}
// ONLINE-NEXT: reverse 0 {{[0-9]+}}
// ONLINE-NEXT: primal 0 [[N]]
// ONLINE-NEXT: release 0
// ONLINE-NEXT: end
// ONLINE-NEXT: gradient n={{[0-9]+}} unit=steps strategy=online split=bisection d=0 t=0 alpha=1000 root=g

// ONLINE-STATS: capsule: checkpointed gradient of f: {{[0-9]+}} primal steps, online-bisection, alpha 1000, d {{[0-9]+}}, t {{[0-9]+}}; [[STAGES:[0-9]+]] stages, [[RECOMPUTED:[0-9]+]] recomputed steps, peak [[PEAK:[0-9]+]] live snapshots
// ONLINE-STATS: [[STAGES]] stages ({{[0-9]+}} steps taped), [[RECOMPUTED]] steps recomputed untaped, {{[0-9]+}} snapshots taken, peak [[PEAK]] live

// SIX: {{^6$}}
// ONE: {{^1$}}
// SVG: Checkpoint schedule of f (gradient call 1 of 2)
// SVG: 6 stages ({{[0-9]+}} steps taped), {{[0-9]+}} steps recomputed untaped, 5 snapshots taken, peak 3 live
// SVG-NOT: Summarised

// LONG: capsule: checkpointed gradient of f: {{[0-9]+}} primal steps, online-bisection, alpha 1, d {{[0-9]+}}, t {{[0-9]+}}; [[STAGES:[0-9]{4,}]] stages, [[RECOMPUTED:[0-9]+]] recomputed steps, peak [[PEAK:[0-9]+]] live snapshots
// LONG: [[STAGES]] stages ({{[0-9]+}} steps taped), [[RECOMPUTED]] steps recomputed untaped, {{[0-9]+}} snapshots taken, peak [[PEAK]] live
// LONG: Summarised: {{[0-9]+}} runs in 160 rows of up to {{[0-9]+}} consecutive runs

// EMPTY: capsule: invalid CAPSULE_TRACE value '': expected the path of a file
// EMPTY-NOT: PASS
// UNWRITABLE: capsule: cannot open the CAPSULE_TRACE file '{{.*}}.dir': Is a directory
// MALFORMED: draw-schedule.py: error: {{.*}}.bad:3: malformed line 'primal 0 ten': 'ten' is not a non-negative integer
// NO-CALL: draw-schedule.py: error: {{.*}}.trace holds 2 gradient calls; there is no call 3
// MISSING: draw-schedule.py: error: cannot read {{.*}}.missing: No such file or directory
