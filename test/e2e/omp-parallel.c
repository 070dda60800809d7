// OpenMP inside differentiated code, reverse and forward mode: parallel
// loops with static, dynamic and guided schedules, reductions (+ and max),
// a double captured firstprivate whose adjoint the team sums (also doubles
// loaded from memory, which -O2 passes as integer loads), shared scalars
// every iteration reads (their adjoints summed per thread, and complete
// where a write of them is reversed), critical
// sections, atomic updates, two worksharing loops in one region with the
// barrier between them (the second reads what other threads wrote in the
// first), private temporaries, a callee reading its neighbours' inputs
// (adjoints of shared memory added atomically, also under heavy
// contention), overlapping memcpy windows
// of shared input, regions run in a loop and a num_threads clause. Each
// gradient, and a tangent along one direction, on teams of 1, 2 and 4
// threads against central differences, at -O0 to -O3; and each gradient
// checkpointed (every region one step), equal to the plain one
// (tools/checkpointed.py; checkpointed/omp-regions.c has long runs).
// Threads wait passively (OMP_WAIT_POLICY): lit runs tests side by side on
// few cores, where spinning teams slow every test down.
// RUN: %clang -O0 -g -fopenmp %capsule_cflags %s -o %t0 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t0
// RUN: %clang -O1 -g -fopenmp %capsule_cflags %s -o %t1 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t1
// RUN: %clang -O2 -g -fopenmp %capsule_cflags %s -o %t2 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t2
// RUN: %clang -O3 -g -fopenmp %capsule_cflags %s -o %t3 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t3
// RUN: env OMP_WAIT_POLICY=passive %check_checkpointed %clang %s %t.ck0 -O0 -g -fopenmp %capsule_cflags -- %capsule_ldflags
// RUN: env OMP_WAIT_POLICY=passive %check_checkpointed %clang %s %t.ck2 -O2 -g -fopenmp %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <omp.h>
#include <string.h>
#include "check.h"

#define N 37

/* Static schedule, a + reduction, alpha firstprivate (passed by value). */
static double scaled_sines(const double *x, double alpha) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) firstprivate(alpha)
  for (int i = 0; i < N; ++i)
    s += sin(x[i]) * alpha * x[i];
  return s;
}

static double scaled_sines_fd(double *x, void *ctx) {
  return scaled_sines(x, *(double *)ctx);
}

static double scaled_sines_alpha_fd(double *a, void *ctx) {
  return scaled_sines((const double *)ctx, a[0]);
}

__attribute__((noinline)) static double stencil(const double *x, int i) {
  double l = i > 0 ? x[i - 1] : 0, r = i + 1 < N ? x[i + 1] : 0;
  return x[i] * x[i] - l * r + cos(x[i]);
}

/* Dynamic schedule; every input is read by three iterations, which other
 * threads may run. Monotonic, iterations handed out in order: libomp's
 * work-stealing implementation of the default (nonmonotonic) dynamic
 * schedule fails an internal assertion now and then (kmp_dispatch.cpp,
 * llvm/llvm-project#54422), with or without Capsule. */
static double dynamic_stencil(double *x) {
  double y[N], s = 0;
#pragma omp parallel for schedule(monotonic : dynamic, 3)
  for (int i = 0; i < N; ++i)
    y[i] = stencil(x, i);
#pragma omp parallel for reduction(+ : s) schedule(guided)
  for (int i = 0; i < N; ++i)
    s += y[i] * y[i];
  return s;
}

/* Two loops of one region: the second reads what other threads wrote in
 * the first, after the barrier between them. */
static double two_phases(double *x) {
  double t[N], u[N], s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; ++i)
      t[i] = exp(0.1 * x[i]);
#pragma omp for
    for (int i = 0; i < N; ++i)
      u[i] = t[i] * t[(i + 7) % N];
#pragma omp for reduction(+ : s)
    for (int i = 0; i < N; ++i)
      s += u[i] * x[i];
  }
  return s;
}

/* Each thread's partial sum enters a critical section nonlinearly. */
static double critical_squares(double *x) {
  double s = 0;
#pragma omp parallel
  {
    double partial = 0;
#pragma omp for
    for (int i = 0; i < N; ++i)
      partial += x[i] * (1 + 0.1 * i);
#pragma omp critical
    s += partial * partial + sin(partial);
  }
  return s;
}

/* Atomic updates of one shared sum and private temporaries. */
static double atomic_products(double *x) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < N; ++i) {
    double w[3];
    for (int k = 0; k < 3; ++k)
      w[k] = x[(i + k) % N] * (k + 1);
    double v = w[0] * w[1] - w[2];
#pragma omp atomic
    s += v;
  }
  return s;
}

/* Overlapping windows of the shared input copied into private arrays: the
 * copies' adjoints go back to inputs other threads copy too. */
static double copied_windows(double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static, 1)
  for (int i = 0; i < N - 4; ++i) {
    double w[4];
    int k = 3 + i % 2;
    memcpy(w, x + i, (size_t)k * sizeof(double));
    for (int j = 0; j < k; ++j)
      s += w[j] * w[(j + 1) % k] * (j + 1);
  }
  return s;
}

/* Every iteration reads the same four inputs: the threads' reverse sweeps
 * add to the same four adjoints all the time (lost updates without
 * atomics). */
static double contended(double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 20000; ++i)
    s += x[i % 4] * x[(i + 1) % 4] * 1e-3;
  return s;
}

/* Regions in a loop (a time-stepping scheme), with a num_threads clause and
 * a max reduction. */
static double stepped(double *x) {
  double a[N], b[N], m = -1e300;
  double *u = a, *v = b;
  for (int i = 0; i < N; ++i)
    u[i] = x[i];
  for (int step = 0; step < 4; ++step) {
#pragma omp parallel for num_threads(3)
    for (int i = 0; i < N; ++i)
      v[i] = u[i] + 0.1 * sin(u[(i + 1) % N]) * u[(i + N - 1) % N];
    double *w = u;
    u = v;
    v = w;
  }
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < N; ++i)
    m = fmax(m, u[i] * (i + 1));
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; ++i)
    s += u[i] * u[i];
  return s + m;
}

#define CHECK_ON_TEAMS(F, x)                                                   \
  for (int threads = 1; threads <= 4; threads *= 2) {                          \
    omp_set_num_threads(threads);                                              \
    CHECK_GRADIENT_AND_DIRECTION(#F, F, x, N);                                 \
  }

/* Doubles loaded from memory and captured firstprivate: optimization passes
 * each as an integer load of its bits, which the region's derivative must
 * still read as the double it is. */
static double damped(double *x) {
  double damping = x[0], h = x[1], s = 0;
#pragma omp parallel for firstprivate(damping, h) reduction(+ : s)
  for (int i = 2; i < N; ++i) {
    double v = x[i];
    for (int k = 0; k < 5; ++k)
      v += h * (-sin(v) - damping * v);
    s += v * v;
  }
  return s;
}

/* Shared scalars every iteration reads: each thread sums their adjoints on
 * its own (Reverse/DeferredAdjoints.cpp), and must have added them where
 * another thread's reverse reads them: here a single thread writes `a`
 * through a pointer between two loops that read it, so its adjoint must be
 * complete when that write is reversed, after the barrier. */
static double shared_scalars(double *x) {
  double a = x[0], b = x[1], s = 0, y[N];
  double *pa = &a;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 2; i < N; ++i)
      y[i] = sin(x[i]) * a + b * x[i];
#pragma omp single
    *pa = a * b + y[N - 1];
#pragma omp for reduction(+ : s)
    for (int i = 2; i < N; ++i)
      s += y[i] * a * b;
  }
  return s;
}

/* A team of one may write a shared scalar it reads, through a pointer, in
 * the middle of its loop: the write's reverse must see the adjoint of the
 * reads after it. */
static double written_while_read(double *x) {
  double a = x[0], s = 0;
  double *pa = &a;
#pragma omp parallel for num_threads(1) reduction(+ : s)
  for (int i = 1; i < N; ++i) {
    s += a * sin(x[i]);
    if (i == N / 2)
      *pa = a * x[1] + 0.5;
  }
  return s + a;
}

CHECK_FD_OF(shared_scalars)
CHECK_FD_OF(written_while_read)
CHECK_FD_OF(damped)
CHECK_FD_OF(dynamic_stencil)
CHECK_FD_OF(two_phases)
CHECK_FD_OF(critical_squares)
CHECK_FD_OF(atomic_products)
CHECK_FD_OF(copied_windows)
CHECK_FD_OF(contended)
CHECK_FD_OF(stepped)

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.05 * i - 0.002 * i * i;

  for (int threads = 1; threads <= 4; threads *= 2) {
    double alpha = 1.7, dx[N] = {0};
    omp_set_num_threads(threads);
    double dalpha = __capsule_autodiff((void *)scaled_sines, capsule_dup, x,
                                       dx, alpha);
    check_grad_fd("scaled_sines", dx, scaled_sines_fd, &alpha, x, N);
    check_grad_fd("scaled_sines alpha", &dalpha, scaled_sines_alpha_fd, x,
                  &alpha, 1);
  }
  CHECK_ON_TEAMS(dynamic_stencil, x)
  CHECK_ON_TEAMS(two_phases, x)
  CHECK_ON_TEAMS(critical_squares, x)
  CHECK_ON_TEAMS(atomic_products, x)
  CHECK_ON_TEAMS(copied_windows, x)
  CHECK_ON_TEAMS(contended, x)
  CHECK_ON_TEAMS(stepped, x)
  CHECK_ON_TEAMS(damped, x)
  CHECK_ON_TEAMS(shared_scalars, x)
  CHECK_ON_TEAMS(written_while_read, x)
  return check_report();
}
