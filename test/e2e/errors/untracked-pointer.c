// Error: f writes an active double through a pointer returned by a function
// without a body: the memory behind it has no tracked adjoints, so the pass
// refuses instead of dropping the derivative.
// RUN: not %clang -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

double *scratch(void); /* defined elsewhere */

double f(double x) {
  double *b = scratch();
  // CHECK: untracked-pointer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': floating-point data accessed through a pointer whose memory has no tracked derivatives
  b[0] = x * x;
  return b[0] * x;
}

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }
