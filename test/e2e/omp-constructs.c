// OpenMP constructs around differentiated code, reverse and forward mode:
// an if clause true and false at run time, collapse(2), single and master
// inside a region, a region in a callee (firstprivate and lastprivate),
// worksharing loops with nowait, a reduction over an array section, and a
// region's gradient in split mode (another region's gradient runs between
// the halves).
// Gradients and a tangent along one direction on teams of 1, 3 and 4
// threads against central differences, at -O0 to -O3, and checkpointed
// gradients equal to the plain ones (an if clause that is false calls the
// region's body directly: it must not yield either). (omp-parallel.c has
// schedules, reductions, critical, atomic and barriers.)
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
#include "check.h"

#define N 24

/* The if clause's condition decides at run time: true, a team; false, the
 * microtask called directly (a team of one). */
static double with_if(double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) if (x[0] < 1)
  for (int i = 0; i < N; ++i)
    s += sin(x[i]) * x[i];
  return s;
}

static double serialized_if(double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) if (x[0] > 1)
  for (int i = 0; i < N; ++i)
    s += sin(x[i]) * x[(i + 3) % N];
  return s;
}

static double collapsed(double *x) {
  double s = 0;
#pragma omp parallel for collapse(2) reduction(+ : s)
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      s += x[i * 6 + j] * x[(i + j) % N] * (i + 1);
  return s;
}

static double single_master(double *x) {
  double s = 0, t = 0;
#pragma omp parallel
  {
#pragma omp single
    t = x[0] * x[1];
#pragma omp for reduction(+ : s)
    for (int i = 0; i < N; ++i)
      s += x[i] * t;
#pragma omp master
    s *= 1.5;
  }
  return s;
}

__attribute__((noinline)) static double region_in_callee(const double *x,
                                                         double scale) {
  double s = 0, last = 0;
#pragma omp parallel for reduction(+ : s) firstprivate(scale) lastprivate(last)
  for (int i = 0; i < N; ++i) {
    last = exp(0.1 * x[i]) * scale;
    s += last;
  }
  return s + last * last;
}

static double calls_region(double *x) {
  return region_in_callee(x, x[5]) * x[3];
}

static double nowait_loops(double *x) {
  double a[N], b[N], s = 0;
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < N; ++i)
      a[i] = x[i] * x[i];
#pragma omp for nowait
    for (int i = 0; i < N; ++i)
      b[i] = cos(x[i]);
  }
  for (int i = 0; i < N; ++i)
    s += a[i] * b[i];
  return s;
}

static double array_reduction(double *x) {
  double h[4] = {0, 0, 0, 0};
#pragma omp parallel for reduction(+ : h[:4])
  for (int i = 0; i < N; ++i)
    h[i % 4] += x[i] * x[i];
  return h[0] * h[1] + h[2] * h[3];
}

CHECK_FD_OF(with_if)
CHECK_FD_OF(serialized_if)
CHECK_FD_OF(collapsed)
CHECK_FD_OF(single_master)
CHECK_FD_OF(calls_region)
CHECK_FD_OF(nowait_loops)
CHECK_FD_OF(array_reduction)

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.05 * i;
  int teams[] = {1, 3, 4};
  for (int k = 0; k < 3; ++k) {
    omp_set_num_threads(teams[k]);
    CHECK_GRADIENT_AND_DIRECTION("with_if", with_if, x, N);
    CHECK_GRADIENT_AND_DIRECTION("serialized_if", serialized_if, x, N);
    CHECK_GRADIENT_AND_DIRECTION("collapsed", collapsed, x, N);
    CHECK_GRADIENT_AND_DIRECTION("single_master", single_master, x, N);
    CHECK_GRADIENT_AND_DIRECTION("calls_region", calls_region, x, N);
    CHECK_GRADIENT_AND_DIRECTION("nowait_loops", nowait_loops, x, N);
    CHECK_GRADIENT_AND_DIRECTION("array_reduction", array_reduction, x, N);
  }
  /* Split mode: the region's tapes wait in the split call between its
   * halves, with code between them that runs regions of its own. */
  for (int k = 0; k < 3; ++k) {
    omp_set_num_threads(teams[k]);
    double plain[N] = {0}, split[N] = {0};
    __capsule_autodiff((void *)collapsed, x, plain);
    void *tape = __capsule_augmentfwd((void *)collapsed, x, split);
    double between[N] = {0};
    __capsule_autodiff((void *)with_if, x, between);
    check_grad_fd("with_if between the halves", between, with_if_fd, 0, x, N);
    __capsule_reverse((void *)collapsed, x, split, 1.0, tape);
    for (int i = 0; i < N; ++i)
      check_close("collapsed (split mode)", split[i], plain[i], CHECK_CF_RTOL,
                  CHECK_CF_ATOL);
  }
  return check_report();
}
