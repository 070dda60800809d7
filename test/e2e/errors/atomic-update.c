// Error: an atomic update of a double that has an adjoint (here a global
// accumulator) has no derivative rule yet.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

static _Atomic double total;

double f(double x) {
  // CHECK: atomic-update.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': atomic update of memory that has adjoints
  total += x * x;
  return total;
}

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }
