// Errors: what a parallel region inside a checkpointed gradient may not do
// yet. Its threads would take arena blocks in an order no re-execution
// repeats, so allocating or freeing inside the region is refused; so are
// random numbers, whose recorded results the team would replay out of
// order. Regions that only compute work (checkpointed/omp-regions.c), and
// plain gradients and tangents of this same code (omp-parallel.c).
// RUN: not %clang -O0 -g -fopenmp %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -fopenmp %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>

static double scratch_per_thread(double *x, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    // CHECK-DAG: omp-checkpointed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'scratch_per_thread{{.*}}' interruptible: allocating or freeing memory inside an OpenMP parallel region of interruptible code (a checkpointed gradient) is not supported yet; allocate before the region
    double *tmp = malloc(n * sizeof *tmp);
    for (int i = 0; i < n; ++i)
      tmp[i] = sin(x[i]);
#pragma omp for
    for (int i = 0; i < n; ++i)
      s += tmp[(7 * i) % n] * x[i];
    free(tmp);
  }
  return s;
}

static double noisy(double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 16; ++i)
    // CHECK-DAG: omp-checkpointed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'noisy{{.*}}' interruptible: random numbers, clocks or input inside an OpenMP parallel region of interruptible code (a checkpointed gradient) are not supported
    s += x[i] * (1 + 1e-3 * rand());
  return s;
}

double gradient(double *x, double *dx) {
  return __capsule_autodiff_checkpointed((void *)scratch_per_thread, x, dx,
                                         capsule_const, 16) +
         __capsule_autodiff_checkpointed((void *)noisy, x, dx);
}
