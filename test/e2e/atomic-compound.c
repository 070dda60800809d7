// Compound assignments to _Atomic floating-point variables (`x += v`,
// `x -= v`, which clang compiles into compare-exchange loops, `x += a * b`
// contracted into fmuladd) are atomic accumulations: differentiated in
// reverse and forward mode, in plain code and by the threads of an OpenMP
// team adding to one shared _Atomic double. Gradients and tangents against
// central differences (a float accumulator's against its closed form), at
// -O0 and -O2; the team's on 1 and 2 threads. The
// value such an update returns stays refused (errors/atomic-update.c).
// Checkpointed gradients equal the plain ones (tools/checkpointed.py).
// RUN: %clang -O0 -g -fopenmp %capsule_cflags %s -o %t0 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t0
// RUN: %clang -O2 -g -fopenmp %capsule_cflags %s -o %t2 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t2
// RUN: env OMP_WAIT_POLICY=passive %check_checkpointed %clang %s %t.ck -O2 -g -fopenmp %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include "check.h"

#define N 9

static _Atomic double total;
static _Atomic float total_f;

static double accumulated(double *x) {
  total = 0;
  for (int i = 0; i < N; ++i) {
    total += sin(x[i]) * x[i];
    total -= 0.25 * x[(i + 1) % N];
  }
  return total * total;
}

static double accumulated_float(double *x) {
  total_f = 0;
  for (int i = 0; i < N; ++i)
    total_f += (float)(x[i] * x[i]);
  return (double)total_f * x[0];
}

static double team_sum(double *x) {
  _Atomic double sum = 0;
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    sum += cos(x[i]) * x[(i + 2) % N];
  return sum * x[1];
}

CHECK_FD_OF(accumulated)
CHECK_FD_OF(team_sum)

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.15 * i;
  CHECK_GRADIENT_AND_TANGENTS(accumulated, x, N);
  {
    // In float, central differences are noise: against the closed form
    // d/dx_i = 2 x_i x_0 (+ the sum of squares for x_0), to float accuracy.
    double dx[N] = {0}, squares = 0;
    __capsule_autodiff((void *)accumulated_float, capsule_dup, x, dx);
    for (int i = 0; i < N; ++i)
      squares += x[i] * x[i];
    for (int i = 0; i < N; ++i)
      check_close("accumulated_float", dx[i],
                  2 * x[i] * x[0] + (i == 0 ? squares : 0), CHECK_FLOAT_RTOL,
                  CHECK_FLOAT_ATOL);
  }
  for (int threads = 1; threads <= 2; ++threads) {
    omp_set_num_threads(threads);
    CHECK_GRADIENT_AND_TANGENTS(team_sum, x, N);
  }
  return check_report();
}
