// Error at run time: a checkpointed gradient whose parallel region gets
// teams of different sizes in different runs (here the program changes the
// thread count itself, in libomp's state, which no capsule restores), so
// that running again from a capsule does not repeat the computation's steps.
// The program stops with a message naming the function and what to keep
// fixed, instead of a wrong gradient.
// RUN: %clang -O2 -g -fopenmp %capsule_cflags %s -o %t %capsule_ldflags
// RUN: not env OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 %t 2>&1 | FileCheck %s
// CHECK: capsule: error: the checkpointed gradient of every_thread did not repeat its computation when it ran again from step {{[0-9]+}} ({{[0-9]+}} steps, not {{[0-9]+}}): its control flow changed between runs. With OpenMP, keep the team size fixed (OMP_DYNAMIC=false, the default, and the same thread limit)
#include <capsule/capsule.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>

static double every_thread(double *x, int n) {
  omp_set_num_threads(omp_get_max_threads() == 2 ? 3 : 2);
  double s = 0;
  // Each thread runs the whole loop: its steps are the team's size times
  // the loop's.
#pragma omp parallel reduction(+ : s)
  for (int k = 0; k < n; ++k)
    s += sin(x[k]) * x[k];
  return s;
}

int main(void) {
  double x[8], dx[8] = {0};
  for (int k = 0; k < 8; ++k)
    x[k] = 0.1 * (k + 1);
  __capsule_autodiff_checkpointed((void *)every_thread, x, dx, capsule_const,
                                  8);
  printf("not stopped: %g\n", dx[0]);
  return 0;
}
