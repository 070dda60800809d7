// Error: reverse over reverse of code with a thread_local global that holds
// pointers (the outer derivative would have to repeat the inner binding of
// the pointer's shadow from a table that exists only on the stack). Forward
// over reverse and thread-local globals without pointers work
// (test/e2e/thread-local.c).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <math.h>

static _Thread_local double scratch[3];
static _Thread_local double *cursor;

static double f(double *x) {
  cursor = scratch;
  for (int i = 0; i < 3; ++i)
    cursor[i] = sin(x[i]);
  return scratch[0] * scratch[1] + scratch[2];
}

static double gradient_sum(double *x) {
  double dx[3] = {0};
  // CHECK: thread-local-nested.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'gradient_sum': a thread_local global that holds pointers, in code differentiated in reverse mode over a gradient (reverse over reverse), is not supported yet
  __capsule_autodiff((void *)f, x, dx);
  return dx[0] + 2 * dx[1] + dx[2];
}

void second_order(double *x, double *g) {
  __capsule_autodiff((void *)gradient_sum, x, g);
}
