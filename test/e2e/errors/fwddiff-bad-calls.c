// Error: malformed forward-mode marker calls, and what forward mode cannot differentiate, are compile-time errors naming the call or the construct (at -O0 and -O2).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

typedef struct {
  double a, b;
} pair;
void __capsule_fwddiff_v(void *, ...);
pair __capsule_fwddiff_pair(void *, ...);
int __capsule_fwddiff_i(void *, ...);

double f(double x, double *p, int n) { return x * p[n]; }
double mystery(double);
// CHECK-DAG: fwddiff-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'g': call to a function without a body and without a known derivative ('mystery')
double g(double x) { return mystery(x * x) + x; }

double use(double x, double *p, double *dp) {
  double s = 0;
  // CHECK-DAG: fwddiff-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'capsule_out' marks argument 1 of 'f', but forward mode has no out arguments
  s += __capsule_fwddiff((void *)f, capsule_out, x, p, dp, capsule_const, 1);
  // CHECK-DAG: fwddiff-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the tangent of argument 1 of 'f' is missing: an activity marker stands in its place
  s += __capsule_fwddiff((void *)f, x, capsule_dup, p, dp, capsule_const, 1);
  // CHECK-DAG: fwddiff-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: argument 1 of 'f' is active but the call ends before its tangent
  s += __capsule_fwddiff((void *)f, x);
  // CHECK-DAG: fwddiff-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the call's return type does not fit the tangent of the result of 'f' (double)
  s += __capsule_fwddiff_i((void *)f, x, 1.0, p, dp, capsule_const, 1);
  // CHECK-DAG: fwddiff-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the call's return type does not fit the tangent of the result of 'f'
  pair r = __capsule_fwddiff_pair((void *)f, x, 1.0, p, dp, capsule_const, 1);
  // CHECK-DAG: fwddiff-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: capsule_dup marks argument 3 of 'f', which is not a pointer
  s += __capsule_fwddiff((void *)f, x, 1.0, p, dp, capsule_dup, 1, 2);
  // CHECK-DAG: fwddiff-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: too many arguments
  s += __capsule_fwddiff((void *)f, x, 1.0, p, dp, capsule_const, 1, 2.0);
  s += __capsule_fwddiff((void *)g, x, 1.0);
  return s + r.a;
}
