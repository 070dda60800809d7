// Interruptible execution of OpenMP code: a time loop whose steps call,
// through a table of function pointers, functions with parallel regions (a
// static loop with a max reduction writing a buffer the next region copies
// back in place, and a dynamic schedule with a critical section, then a +
// reduction after the barrier). Each region runs as one step; interrupted at any step between
// them, resumed, nested and re-executed, the result and the state are
// bit-identical to the uninterrupted run's (interrupt_check.h), on teams of
// 1 and 2 threads (a + reduction's sum depends on which iterations each
// thread summed with a dynamic schedule, and on the order the threads
// combine it with 3, in any run: so it runs over a static schedule). The team's stores are journaled:
// resuming a capsule twice would otherwise start the second time from what
// the first left.
// RUN: %clang -O0 -g -fopenmp %capsule_cflags %s -o %t0 %capsule_ldflags
// RUN: %clang -O2 -g -fopenmp %capsule_cflags %s -o %t2 %capsule_ldflags
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=1 %t0
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 %t0
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 %t2
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=1 %t2
#include "interrupt_check.h"

#include <math.h>

#define N 32
#define STEPS 12

typedef double (*step_fn)(double *, int);

static double relax_step(double *u, int t) {
  double m = 0, w[N];
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < N; ++i) {
    w[i] = 0.9 * u[i] + 0.1 * sin(u[(i + 1) % N] * (t + 1));
    m = fmax(m, w[i]);
  }
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    u[i] = w[i];
  return m;
}

static double energy_step(double *u, int t) {
  double w[N], e = 0, largest = -1;
#pragma omp parallel
  {
    /* monotonic: libomp's work-stealing implementation of the default
     * (nonmonotonic) dynamic schedule fails an internal assertion now and
     * then (kmp_dispatch.cpp, llvm/llvm-project#54422), with or without
     * Capsule. */
#pragma omp for schedule(monotonic : dynamic, 3)
    for (int i = 0; i < N; ++i) {
      double v = u[i] * cos(u[(i + t) % N]);
      w[i] = v * v;
#pragma omp critical
      if (v > largest)
        largest = v;
    }
#pragma omp for schedule(static) reduction(+ : e)
    for (int i = 0; i < N; ++i)
      e += w[i];
  }
  return e + largest;
}

static step_fn steps[2] = {relax_step, energy_step};

static double run(double *u, int n) {
  double s = 0;
  for (int t = 0; t < n; ++t)
    s += steps[t % 2](u, t);
  return s;
}

static double u[N];
static void reset(void) {
  for (int i = 0; i < N; ++i)
    u[i] = 0.3 + 0.01 * i;
}
DEFINE_RUNNERS(double, run, u, STEPS)
static const struct region regions[] = {{u, sizeof u}};

int main(void) {
  struct program p = {
      "omp-regions", sizeof(double), reset, plain_run, primops_run,
      interrupt_run, regions,        1,     1 << 16};
  return check_interruptible(&p) != 0;
}
