// Error: an atomic update of a double that has an adjoint is differentiated
// only as an accumulation whose old value goes unused (`#pragma omp atomic`,
// test/e2e/omp-parallel.c); here the program uses the value the update
// returns.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

static _Atomic double total;

double f(double x) {
  // CHECK: atomic-update.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': atomic update of memory that has adjoints
  return total += x * x;
}

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }
