// Error: an active double flows into long double arithmetic, which Capsule
// does not differentiate; refusing beats a silently lost derivative.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

double f(double x) {
  // CHECK: long-double.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': active value converted to long double
  long double y = (long double)x * x;
  return (double)y + x;
}

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }
