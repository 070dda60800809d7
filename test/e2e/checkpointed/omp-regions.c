// OpenMP parallel regions inside checkpointed gradients: each region runs as
// one step, its threads' stores journaled in the forking thread's journal,
// so that capsules taken between regions roll back what the team wrote.
// Time-stepping loops whose steps are parallel loops updating the state in
// place (a rollback that missed a worker's store would re-run a step from
// the state it left, and every later gradient component would be wrong),
// a dynamic schedule with a reduction, a max reduction through a critical
// section, a region inside a function without loops called from the time
// loop (its shared sum lives on the machine stack), a callee with a loop
// called both inside regions and outside them, rows of pointers written by
// the team (pointer shadows in runtime memory) and nested regions. Every
// gradient against the plain gradient (itself checked against central
// differences in test/e2e/omp-parallel.c) and against central differences,
// on teams of 1, 2 and 3 threads, with stages of few steps and deep
// checkpoint trees (CAPSULE_ATOMIC_LOOPS=0 makes every loop header a yield
// point; CAPSULE_LEAF_STEPS makes stages short; a dynamic schedule on 3
// threads checks that every run counts the same steps), an interrupted
// primal resumed twice from the same capsule, and forward mode over a
// checkpointed gradient (a Hessian-vector product).
// RUN: env CAPSULE_ATOMIC_LOOPS=0 %clang -O0 -g -fopenmp %capsule_cflags %s -o %t0 %capsule_ldflags
// RUN: env CAPSULE_ATOMIC_LOOPS=0 %clang -O2 -g -fopenmp %capsule_cflags %s -o %t2 %capsule_ldflags
// RUN: %clang -O3 -g -fopenmp %capsule_cflags %s -o %t3 %capsule_ldflags
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 CAPSULE_LEAF_STEPS=40 %t0
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=3 CAPSULE_LEAF_STEPS=25 CAPSULE_STRATEGY=treeverse CAPSULE_SPLIT=binomial CAPSULE_SNAPSHOTS=3 %t2
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=1 CAPSULE_LEAF_STEPS=30 %t2
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 CAPSULE_LEAF_STEPS=60 %t2
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 %t3
// The regions' loops count as steps (a region charged a few steps would
// leave relax a handful of stages): more than 10 stages of 1000 steps.
// RUN: env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 CAPSULE_STATS=1 CAPSULE_LEAF_STEPS=1000 %t3 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: checkpointed gradient of relax: {{[0-9]+}} primal steps, {{[^;]*}}; {{[1-9][0-9]+}} stages
#include <capsule/capsule.h>
#include <math.h>
#include <omp.h>
#include <string.h>
#include "check.h"

#define N 24
#define STEPS 30

/* A loop of its own, called by the team and outside it. */
__attribute__((noinline)) static double smooth(const double *u, int i) {
  double s = 0;
  for (int j = -2; j <= 2; ++j)
    s += u[(i + j + N) % N] * (3 - (j < 0 ? -j : j));
  return s / 9;
}

/* Steps updating the state in place, in two phases per step separated by
 * the worksharing loop's barrier; the team writes u itself. */
static double heat(double *u) {
  double flux[N];
  for (int t = 0; t < STEPS; ++t) {
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (int i = 0; i < N; ++i)
        flux[i] = u[(i + 1) % N] - u[i];
#pragma omp for schedule(static)
      for (int i = 0; i < N; ++i)
        u[i] += 0.2 * (flux[i] - flux[(i + N - 1) % N]) + 0.01 * sin(u[i]);
    }
  }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += u[i] * u[i] * (1 + 0.1 * i);
  return s;
}

/* A dynamic schedule and a + reduction in a function without loops; the
 * shared sum lives on the caller's machine stack. The schedule is
 * monotonic: libomp's work-stealing implementation of the default
 * (nonmonotonic) dynamic schedule fails an internal assertion now and then
 * (kmp_dispatch.cpp, llvm/llvm-project#54422), with or without Capsule. */
static double energy(double *u) {
  double e = 0;
#pragma omp parallel for schedule(monotonic : dynamic, 2) reduction(+ : e)
  for (int i = 0; i < N; ++i)
    e += cos(u[i]) * smooth(u, i);
  return e;
}

/* Regions in a loop with a second exit (a yield point at its header even
 * where counted loops are atomic), a max reduction
 * through a critical section, a callee with a loop outside the regions. */
static double relax(double *u) {
  double total = 0, w[N];
  for (int t = 0; t < STEPS && total < 1e9; ++t) {
    double m = -1e300;
#pragma omp parallel for
    for (int i = 0; i < N; ++i) {
      double v = smooth(u, i) * u[i];
      w[i] = 0.9 * u[i] + 0.1 * tanh(v);
#pragma omp critical
      if (v > m)
        m = v;
    }
#pragma omp parallel for
    for (int i = 0; i < N; ++i)
      u[i] = w[i];
    total += energy(u) + m + smooth(u, t % N);
  }
  return total;
}

/* The team stores pointers (rows of a matrix) and reads through them. */
static double rows(double *u) {
  double *row[N / 4];
  double acc = 0;
  for (int t = 0; t < STEPS / 3; ++t) {
#pragma omp parallel for
    for (int r = 0; r < N / 4; ++r)
      row[r] = u + 4 * ((r + t) % (N / 4));
#pragma omp parallel for reduction(+ : acc)
    for (int r = 0; r < N / 4; ++r) {
      double *p = row[r];
      p[r % 4] = p[r % 4] * 0.95 + 0.05 * p[(r + 1) % 4] * p[(r + 2) % 4];
      acc += p[0] * p[3];
    }
  }
  return acc;
}

/* Nested regions (two levels active). */
static double nested(double *u) {
  double s = 0;
  for (int t = 0; t < STEPS / 5; ++t) {
#pragma omp parallel for num_threads(2) reduction(+ : s)
    for (int b = 0; b < 2; ++b) {
      double part = 0;
#pragma omp parallel for num_threads(2) reduction(+ : part)
      for (int i = b * (N / 2); i < (b + 1) * (N / 2); ++i) {
        u[i] = u[i] * 0.97 + 0.03 * sin(u[i] * (1 + 0.1 * t));
        part += u[i] * u[i];
      }
      s += part * (1 + b);
    }
  }
  return s;
}

CHECK_FD_OF(heat)
CHECK_FD_OF(relax)
CHECK_FD_OF(rows)
CHECK_FD_OF(nested)

/* The checkpointed gradient of F against the plain one and against central
 * differences (a macro: a marker call names the function it
 * differentiates). */
#define CHECK_CHECKPOINTED(F, x0)                                              \
  do {                                                                         \
    double x_[N], dx_[N] = {0}, y_[N], dy_[N] = {0};                           \
    memcpy(x_, x0, sizeof x_);                                                 \
    memcpy(y_, x0, sizeof y_);                                                 \
    __capsule_autodiff((void *)F, x_, dx_);                                    \
    __capsule_autodiff_checkpointed((void *)F, y_, dy_);                       \
    check_vec_cf(#F " checkpointed vs plain", dy_, dx_, N);                    \
    check_vec_cf(#F " checkpointed state", y_, x_, N);                         \
    check_grad_fd(#F " checkpointed", dy_, F##_fd, 0, x0, N);                  \
  } while (0)

/* Forward mode over the checkpointed gradient of heat (a Hessian-vector
 * product; the tangent function's regions are team code too), against
 * central differences of the plain gradient along v. */
static void heat_gradient(double *u, double *du) {
  __capsule_autodiff_checkpointed((void *)heat, u, du);
}

static void check_hessian_vector(const double *x0) {
  double u[N], du[N] = {0}, tu[N], hv[N] = {0}, v[N];
  for (int i = 0; i < N; ++i)
    v[i] = tu[i] = ((i * 5) % 7) / 3.0 - 1;
  memcpy(u, x0, sizeof u);
  __capsule_fwddiff((void *)heat_gradient, capsule_dup, u, tu, capsule_dup,
                    du, hv);
  for (int j = 0; j < N; ++j) {
    double h = 1e-5, up[N], um[N], gp[N] = {0}, gm[N] = {0};
    for (int i = 0; i < N; ++i) {
      up[i] = x0[i] + h * v[i];
      um[i] = x0[i] - h * v[i];
    }
    __capsule_autodiff((void *)heat, up, gp);
    __capsule_autodiff((void *)heat, um, gm);
    check_close("heat Hessian-vector product over checkpointed", hv[j],
                (gp[j] - gm[j]) / (2 * h), 1e-5, 1e-7);
  }
}

/* The primal interrupted half way and resumed twice from the capsule. */
static void check_interrupted(const double *x0) {
  double x[N], want;
  memcpy(x, x0, sizeof x);
  want = relax(x);
  memcpy(x, x0, sizeof x);
  uint64_t n = __capsule_primops((void *)relax, x);
  memcpy(x, x0, sizeof x);
  capsule_t *c = __capsule_interrupt((void *)relax, n / 2, x);
  if (!c) {
    check_close("relax was interrupted", 0, 1, 0, 0);
    return;
  }
  double r1, r2;
  capsule_resume(c, &r1);
  capsule_resume(c, &r2);
  capsule_release(c);
  check_cf("relax resumed", r1, want);
  check_cf("relax resumed again", r2, want);
}

int main(void) {
  double x[N];
  omp_set_max_active_levels(2);
  for (int i = 0; i < N; ++i)
    x[i] = 0.6 + 0.4 * sin(0.9 * i);
  CHECK_CHECKPOINTED(heat, x);
  CHECK_CHECKPOINTED(relax, x);
  CHECK_CHECKPOINTED(rows, x);
  CHECK_CHECKPOINTED(nested, x);
  check_interrupted(x);
  check_hessian_vector(x);
  return check_report();
}
