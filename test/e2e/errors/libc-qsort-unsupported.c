// Error: qsort on active data where its built-in rules cannot go: inside a
// checkpointed gradient, elements that hold pointers (their shadow pointers
// would have to move in green runs too, and where checkpointed code keeps
// them) and elements whose layout is unknown (a union that may hold a
// pointer: the rule moves their whole shadows in the forward sweep, with
// the adjoints later stages left there; numbers are fine:
// libc-qsort-bsearch.c), and under a second derivative (forward over
// reverse: the rules are compiled into the runtime), numbers too.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdlib.h>

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

struct tagged {
  double value;
  union {
    const char *name;
    long id;
  } tag;
};

static double sorted_tagged(double *x) {
  struct tagged v[3] = {{x[0], {"a"}}, {x[1] * x[1], {"b"}}, {x[2], {"c"}}};
  // CHECK-DAG: libc-qsort-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'sorted_tagged' interruptible: a call of 'qsort', which has a built-in gradient rule, inside a checkpointed gradient is not supported yet (for elements that hold pointers, or whose layout is unknown, the rule moves their shadows as it sorts); use the plain gradient
  qsort(v, 3, sizeof v[0], ascending);
  return v[0].value + 2 * v[1].value + 3 * v[2].value;
}

struct named {
  double value;
  const char *name;
};

static double sorted_named(double *x) {
  struct named v[3] = {{x[0], "a"}, {x[1] * x[1], "b"}, {x[2], "c"}};
  // CHECK-DAG: libc-qsort-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'sorted_named' interruptible: a call of 'qsort', which has a built-in gradient rule, inside a checkpointed gradient is not supported yet (for elements that hold pointers
  qsort(v, 3, sizeof v[0], ascending);
  return v[0].value + 2 * v[1].value + 3 * v[2].value;
}

static double sorted(double *x) {
  double v[3] = {x[0], x[1] * x[1], x[2]};
  qsort(v, 3, sizeof v[0], ascending);
  return v[0] + 2 * v[1] + 3 * v[2];
}

static void sorted_gradient(double *x, double *dx) {
  __capsule_autodiff((void *)sorted, x, dx);
}
// CHECK-DAG: error: capsule: cannot differentiate function 'qsort'{{.*}}: nested derivatives (forward over reverse, reverse over reverse, or derivatives of a derivative) of the library routine 'qsort' are not supported yet

void run(double *x, double *dx, double *v, double *dv) {
  __capsule_autodiff_checkpointed((void *)sorted_tagged, x, dx);
  __capsule_autodiff_checkpointed((void *)sorted_named, x, dx);
  __capsule_fwddiff((void *)sorted_gradient, x, v, dx, dv);
}
