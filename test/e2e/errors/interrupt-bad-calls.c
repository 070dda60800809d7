// Error: malformed __capsule_primops / __capsule_interrupt calls are
// compile-time errors naming what is wrong.
// RUN: not %clang -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdio.h>

double f(double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}

uint64_t not_a_function(double *a) {
  // CHECK-DAG: interrupt-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the first argument of __capsule_primops must be the function to run, e.g. (void *)f
  return __capsule_primops(a, 3);
}

uint64_t too_few(double *a) {
  // CHECK-DAG: interrupt-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: too few arguments: 'f' takes 2 arguments but the call passes 1
  return __capsule_primops((void *)f, a);
}

capsule_t *too_many(double *a) {
  // CHECK-DAG: interrupt-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: too many arguments: 'f' takes 2 arguments but the call passes 3
  return __capsule_interrupt((void *)f, 10, a, 3, 4);
}

capsule_t *no_body(void) {
  // CHECK-DAG: interrupt-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'puts' has no body in this translation unit; only functions defined here can be interrupted
  return __capsule_interrupt((void *)puts, 10, "x");
}

capsule_t *wrong_type(double *a) {
  // CHECK-DAG: interrupt-bad-calls.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: argument 2 of 'f' has type i32 but the call passes ptr
  return __capsule_interrupt((void *)f, 10, a, a);
}
