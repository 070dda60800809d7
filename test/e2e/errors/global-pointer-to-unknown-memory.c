// A global pointer the caller sets, before the gradient call, to memory
// Capsule has no shadow for (a heap block that is neither a dup argument
// nor a global), which the differentiated code then writes and reads
// through. Its derivative cannot be tracked; before, the reverse sweep
// crashed through a null shadow. Now the pointer's shadow is its place in
// an inaccessible trap, and going through it stops the program with a
// message naming the global (exit status 3), at -O0 and -O2, plain and
// checkpointed, and in forward mode (whose calls did not install the
// handler that tells the trap's faults: the program died of SIGSEGV
// without a word).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm
// RUN: not %t0 2>&1 | FileCheck %s
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm
// RUN: not %t2 2>&1 | FileCheck %s
// RUN: %clang -O2 -g -DCHECKPOINTED %capsule_cflags %s -o %t3 %capsule_ldflags -lm
// RUN: not %t3 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -DFORWARD %capsule_cflags %s -o %t4 %capsule_ldflags -lm
// RUN: not %t4 2>&1 | FileCheck %s
// RUN: %t0; test $? -eq 3
// RUN: %t4; test $? -eq 3
// CHECK: capsule: the differentiated code went through a pointer that a global held when the gradient was called ('scratch') to memory that has no shadow
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double *scratch;

// Apart, so that -O2 keeps the values in memory.
__attribute__((noinline)) static void fill(const double *x, int n) {
  for (int i = 0; i < n; i++)
    scratch[i] = sin(x[i]);
}

__attribute__((noinline)) static double use(const double *x, int n) {
  double r = 0.0;
  for (int i = 0; i < n; i++)
    r += scratch[i] * x[(i + 1) % n];
  return r;
}

double f(const double *x, int n) {
  fill(x, n);
  return use(x, n);
}

int main(void) {
  volatile int cells = 4; // a size the optimizer cannot see: a real heap block
  scratch = malloc(cells * sizeof(double));
  double x[4] = {0.1, 0.2, 0.3, 0.4}, dx[4] = {0};
#if defined(CHECKPOINTED)
  __capsule_autodiff_checkpointed((void *)f, capsule_dup, x, dx, 4);
#elif defined(FORWARD)
  double tx[4] = {1, 0, 0, 0};
  dx[0] = __capsule_fwddiff((void *)f, capsule_dup, x, tx, 4);
#else
  __capsule_autodiff((void *)f, capsule_dup, x, dx, 4);
#endif
  printf("FAIL: the gradient returned (%g)\n", dx[0]);
  return 0;
}
