// Error: OpenMP constructs Capsule does not differentiate yet, inside
// differentiated code: ordered (its sections would have to be reversed in
// iteration order), tasks, and a BLAS routine inside a parallel region
// (its built-in rule adds adjoints without atomics). Forward mode refuses
// the constructs too.
// RUN: not %clang -O0 -g -fopenmp %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -fopenmp %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <math.h>

double cblas_ddot(const int n, const double *x, const int incx,
                  const double *y, const int incy);

static double ordered_chain(double *x) {
  double s = 1;
#pragma omp parallel for ordered
  for (int i = 0; i < 16; ++i) {
    double v = sin(x[i]);
    // CHECK-DAG: omp-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function '{{.*}}': the OpenMP construct behind '__kmpc_ordered' (tasks, ordered, copyprivate, teams, ...) inside differentiated code is not supported yet
#pragma omp ordered
    s = s * v + 1;
  }
  return s;
}

static double tasks(double *x) {
  double a = 0, b = 0;
#pragma omp parallel
#pragma omp single
  {
    // CHECK-DAG: omp-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function '{{.*}}': the OpenMP construct behind '__kmpc_omp_task
#pragma omp task shared(a)
    a = sin(x[0]);
#pragma omp task shared(b)
    b = cos(x[1]);
  }
  return a * b;
}

static double blas_in_region(double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 4; ++i)
    // CHECK-DAG: omp-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function '{{.*}}': the library routine 'cblas_ddot' inside an OpenMP parallel region is not supported yet
    s += cblas_ddot(4, x + 4 * i, 1, x + 4 * i, 1);
  return s;
}

void run(double *x, double *dx, double *v) {
  __capsule_autodiff((void *)ordered_chain, x, dx);
  __capsule_autodiff((void *)tasks, x, dx);
  __capsule_autodiff((void *)blas_in_region, x, dx);
  __capsule_fwddiff((void *)ordered_chain, x, v);
}
