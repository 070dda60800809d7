// Error: an OpenMP parallel region inside a checkpointed gradient (its
// threads would have to stop and resume inside the region). Plain gradients
// and tangents of the same code work (test/e2e/omp-parallel.c).
// RUN: not %clang -O0 -g -fopenmp %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -fopenmp %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <math.h>

static double sum_of_sines(double *x) {
  double s = 0;
  // CHECK: omp-checkpointed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'sum_of_sines' interruptible: an OpenMP parallel region inside interruptible code (a checkpointed gradient) is not supported yet; differentiate it with __capsule_autodiff or __capsule_fwddiff
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 16; ++i)
    s += sin(x[i]) * x[i];
  return s;
}

double gradient(double *x, double *dx) {
  return __capsule_autodiff_checkpointed((void *)sum_of_sines, x, dx);
}
