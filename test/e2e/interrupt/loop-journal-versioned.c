// Interruptible execution of loops whose journal barriers stay in the loop
// (a conditional store, a scatter, a stride known only at run time, a loop
// left early with its values used after it, an inner loop of a nest, a loop
// that calls a resumable helper). Optimized code runs a copy of each such
// loop without barriers while no snapshot is live
// (Interrupt/JournalUnswitch.h): interrupted and resumed runs, which go
// through the copy with barriers, must end bit-identical to the plain run
// at every step, at every -O level. At -O2 the copy without barriers of the
// conditional store vectorizes as the primal's loop does, and the other
// keeps its per-store barrier.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
// RUN: %clang -O2 %capsule_cflags %s -S -emit-llvm -o - | FileCheck %s
#include "interrupt_check.h"

enum { N = 24 };

// CHECK-LABEL: define internal {{.*}} @relu.capsule.step(
// CHECK-DAG: fcmp ogt <{{[0-9]+}} x double>
// CHECK-DAG: call void @__capsule_journal_write(ptr {{.*}}, i64 8)
// CHECK: {{^}}}
__attribute__((noinline)) void relu(int n, const double *in, double *out) {
  for (int i = 0; i < n; ++i)
    if (in[i] > 0)
      out[i] = in[i];
}

__attribute__((noinline)) void scatter(int n, const int *to, const double *in,
                                       double *out) {
  for (int i = 0; i < n; ++i)
    out[to[i]] += in[i];
}

__attribute__((noinline)) void column(int rows, int stride, double *m) {
  for (int i = 0; i < rows; ++i)
    m[i * stride] = m[i * stride] * 0.5 + i;
}

/* Left early; the sum and the index are used after the loop. */
__attribute__((noinline)) double until_above(int n, double limit, double *a,
                                             int *stopped) {
  double sum = 0;
  int i;
  for (i = 0; i < n; ++i) {
    if (a[i] > limit)
      break;
    a[i] = a[i] * 2 + 1;
    sum += a[i];
  }
  *stopped = i;
  return sum;
}

/* Its loop's trip count is unknown: its header is a yield point. */
__attribute__((noinline)) double step(double v) {
  while (v > 0.5)
    v *= 0.75;
  return v + 0.25;
}

/* An inner loop with a conditional store in a nest, and a loop whose
 * helper call is a point where the run may stop and resume. */
__attribute__((noinline)) void nest(int n, double *a) {
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < n; ++i)
      if ((i + r) % 3 == 0)
        a[i] -= 0.125 * r;
  for (int i = 0; i < n; ++i)
    if (a[i] < 1)
      a[i] = step(a[i]);
}

static double a[N], b[N], m[N * 3];
static int to[N], stopped;

double versioned(int n) {
  relu(n, a, b);
  scatter(n, to, a, b);
  column(n, 3, m);
  double sum = until_above(n, 5.0, a, &stopped);
  nest(n, b);
  return sum + b[1] + m[3];
}

static void reset(void) {
  for (int i = 0; i < N; ++i) {
    a[i] = (i * 5) % 9 - 3.5;
    b[i] = i * 0.25;
    to[i] = (i * 7) % N;
  }
  for (int i = 0; i < N * 3; ++i)
    m[i] = i * 0.5;
  stopped = -1;
}
DEFINE_RUNNERS(double, versioned, N)
static const struct region regions[] = {
    {a, sizeof a}, {b, sizeof b}, {m, sizeof m}, {&stopped, sizeof stopped}};

int main(void) {
  struct program p = {"loop-journal-versioned", sizeof(double), reset,
                      plain_run, primops_run, interrupt_run, regions, 4,
                      4096 + 2048};
  return check_interruptible(&p) != 0;
}
