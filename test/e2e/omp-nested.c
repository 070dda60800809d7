// Nested OpenMP parallel regions in differentiated code: a parallel loop
// whose body calls a function with a parallel loop of its own (a max
// reduction outside, a + reduction inside), with nesting off (the inner
// teams have one thread) and on (two levels of teams); and a recursive
// function with a region at every level. Gradients and a tangent against
// central differences, at -O0 and -O2; checkpointed gradients equal to the
// plain ones.
// RUN: %clang -O0 -g -fopenmp %capsule_cflags %s -o %t0 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t0
// RUN: %clang -O2 -g -fopenmp %capsule_cflags %s -o %t2 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t2
// RUN: env OMP_WAIT_POLICY=passive %check_checkpointed %clang %s %t.ck0 -O0 -g -fopenmp %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <omp.h>
#include "check.h"

#define N 12

__attribute__((noinline)) static double row(const double *x, int i) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int j = 0; j < N; ++j)
    s += sin(x[i] * x[j]);
  return s;
}

static double nested(double *x) {
  double s = 0;
#pragma omp parallel for reduction(max : s)
  for (int i = 0; i < N; ++i)
    s = fmax(s, row(x, i) * (1 + 0.1 * i));
  return s;
}

static double levels(double *x, int depth) {
  if (depth == 0)
    return 0;
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; ++i)
    s += x[i] * x[(i + depth) % N];
  return s + 0.5 * levels(x, depth - 1);
}

static double recursive(double *x) { return levels(x, 3); }

CHECK_FD_OF(nested)

CHECK_FD_OF(recursive)

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.1 + 0.05 * i;
  omp_set_num_threads(2);
  for (int active = 1; active <= 2; ++active) {
    omp_set_max_active_levels(active);
    CHECK_GRADIENT_AND_DIRECTION("nested", nested, x, N);
    CHECK_GRADIENT_AND_DIRECTION("recursive", recursive, x, N);
  }
  return check_report();
}
