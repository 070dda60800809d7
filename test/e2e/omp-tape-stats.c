// The statistics' peak tape of a gradient through an OpenMP parallel loop
// counts the records every thread of the team set aside (they live until
// the reverse sweep), not the calling thread's alone: the same loop on one
// thread and on two has the same peak (before, two threads reported half
// of it), at least a double per iteration. The gradient against its closed
// form on both team sizes.
// RUN: %clang -O0 -g -fopenmp %capsule_cflags %s -o %t0 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t0
// RUN: %clang -O2 -g -fopenmp %capsule_cflags %s -o %t2 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t2
#include <capsule/capsule.h>
#include <math.h>
#include <omp.h>
#include "check.h"

/* x[i] = x[i] sin(x[i]) in place (the reverse sweep needs the old x[i]),
 * and the sum of squares. */
static double squares(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    x[i] = sin(x[i]) * x[i];
    s += x[i] * x[i];
  }
  return s;
}

int main(void) {
  const int n = 200000;
  double *x = malloc(n * sizeof *x), *dx = malloc(n * sizeof *dx);
  uint64_t peak[3] = {0};
  for (int threads = 1; threads <= 2; ++threads) {
    omp_set_num_threads(threads);
    for (int i = 0; i < n; ++i) {
      x[i] = 0.5 + 1e-6 * i;
      dx[i] = 0;
    }
    __capsule_autodiff((void *)squares, x, dx, capsule_const, n);
    for (int i = 0; i < n; i += 9973) {
      double v = 0.5 + 1e-6 * i, y = sin(v) * v;
      char what[64];
      snprintf(what, sizeof what, "%d threads: d/dx[%d]", threads, i);
      check_cf(what, dx[i], 2 * y * (cos(v) * v + sin(v)));
    }
    capsule_stats_t st;
    capsule_get_stats(&st);
    peak[threads] = st.last_tape_bytes;
    char what[64];
    snprintf(what, sizeof what, "%d threads: a double per iteration",
             threads);
    check_cf(what, peak[threads] >= sizeof(double) * (uint64_t)n, 1);
  }
  printf("peak tape: %llu bytes on one thread, %llu on two\n",
         (unsigned long long)peak[1], (unsigned long long)peak[2]);
  check_close("the peak on two threads against one", (double)peak[2],
              (double)peak[1], 0.05, 0);
  free(x);
  free(dx);
  return check_report();
}
