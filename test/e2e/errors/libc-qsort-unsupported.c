// Error: qsort on active data where its built-in rules cannot go: inside a
// checkpointed gradient (the schedule could not undo the sort's writes when
// it re-executes a stage) and under a second derivative (forward over
// reverse: the rules are compiled into the runtime).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdlib.h>

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double sorted(double *x) {
  double v[3] = {x[0], x[1] * x[1], x[2]};
  // CHECK-DAG: libc-qsort-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'sorted' interruptible: a call of 'qsort', which has a built-in gradient rule, inside a checkpointed gradient is not supported yet
  qsort(v, 3, sizeof v[0], ascending);
  return v[0] + 2 * v[1] + 3 * v[2];
}

static void sorted_gradient(double *x, double *dx) {
  __capsule_autodiff((void *)sorted, x, dx);
}
// CHECK-DAG: error: capsule: cannot differentiate function 'qsort'{{.*}}: nested derivatives (forward over reverse, reverse over reverse, or derivatives of a derivative) of the library routine 'qsort' are not supported yet

void run(double *x, double *dx, double *v, double *dv) {
  __capsule_autodiff_checkpointed((void *)sorted, x, dx);
  __capsule_fwddiff((void *)sorted_gradient, x, v, dx, dv);
}
