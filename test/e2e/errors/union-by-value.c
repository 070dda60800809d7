// Error: a union passed by value to a differentiated function, or to the
// marker's function. The callee gets its own copy, whose shadow needs the
// caller's shadow pointers and gives back the copy's adjoints; clang lays
// the union out as one of its members ({[3 x i64]} here, while it holds
// doubles), so which bytes are which is unknown. The derivative was lost
// silently before (half of it here).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -DMARKER %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MARKER
// CHECK: union-by-value.c:[[@LINE+21]]:10: error: capsule: cannot differentiate function 'f': union passed by value: its type does not say whether it holds floating-point data or pointers
// MARKER: error: capsule: {{.*}}argument 1 of 'use'{{.*}} is a union passed by value: its type does not say whether it holds floating-point data or pointers
#include <capsule/capsule.h>
#include <math.h>

void __capsule_autodiff_v(void *, ...);

union Big {
  long l[3];
  double d[3];
};

__attribute__((noinline)) static double use(union Big b, double y) {
  return (b.d[0] + b.d[2]) * y;
}

static double f(double *x) {
  union Big b;
  b.d[0] = x[0] * x[1];
  b.d[1] = 0;
  b.d[2] = sin(x[1]);
  return use(b, x[0]);
}

int main(void) {
  double x[2] = {0.3, 1.2}, dx[2] = {0};
#ifdef MARKER
  union Big b = {.d = {1, 2, 3}}, db = {.d = {0, 0, 0}};
  __capsule_autodiff_v((void *)use, capsule_dup, &b, &db, x[0]);
#else
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
#endif
  return dx[0] == 0;
}
