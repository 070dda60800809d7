// Error: malformed split-mode calls, and split mode where Capsule cannot
// run it: split markers in a combined gradient, a reverse half without its
// tape, an augmented half whose result drops the tape, a constant
// enzyme_allocated size too small for the tape, enzyme_primal_return,
// __enzyme_augmentsize with something other than markers, and split mode
// inside differentiated code (nested).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

extern int enzyme_tape, enzyme_allocated, enzyme_primal_return;
void __enzyme_augmentfwd_v(void *, ...);
int __enzyme_augmentsize(void *, ...);

static double sq(double *x) { return x[0] * x[0]; }

static double nested(double *x) {
  double dx = 0;
  // CHECK-DAG: split-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'nested': split mode (__enzyme_augmentfwd, __enzyme_reverse) inside differentiated code (nested differentiation) is not supported yet
  void *tape = __capsule_augmentfwd((void *)sq, x, &dx);
  __capsule_reverse((void *)sq, x, &dx, 1.0, tape);
  return dx * x[0];
}

void run(double *x, double *dx, void *memory) {
  // CHECK-DAG: split-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_tape' belongs to split mode (__enzyme_augmentfwd, __enzyme_reverse)
  __capsule_autodiff((void *)sq, enzyme_tape, memory, x, dx);
  // CHECK-DAG: split-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the last argument must be the tape __enzyme_augmentfwd returned (or name its memory with enzyme_tape)
  __capsule_reverse((void *)sq, x, dx, 1.0);
  // CHECK-DAG: split-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the call returns nothing, so the tape would be lost
  __enzyme_augmentfwd_v((void *)sq, x, dx);
  // CHECK-DAG: split-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: enzyme_allocated gives 4 bytes for the tape; it needs 8 (__enzyme_augmentsize)
  __capsule_augmentfwd((void *)sq, enzyme_allocated, 4, enzyme_tape, memory, x, dx);
  // CHECK-DAG: split-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_primal_return' does not apply to split mode
  __capsule_augmentfwd((void *)sq, enzyme_primal_return, x, dx);
  // CHECK-DAG: split-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: argument 2 must be an activity marker
  (void)__enzyme_augmentsize((void *)sq, x);
  __capsule_autodiff((void *)nested, x, dx);
}
