// Recursion as deep as the primal handles: the checkpointed gradient at
// 20,000 frames (its frame stack outgrew its first committed megabyte while
// a caller was writing a callee's arguments, and the journal read an
// uncommitted page); at 100,000 frames, plain at -O0 and checkpointed need
// more machine stack than 8 MiB and stop with a message naming the limit
// and how to raise it, and with the limit raised every gradient is right.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm
// RUN: env CAPSULE_CHECKPOINT_ALL=1 %clang -O2 -g %capsule_cflags %s -o %t2c %capsule_ldflags -lm
// RUN: env CAPSULE_CHECKPOINT_ALL=1 %clang -O0 -g %capsule_cflags %s -o %t0c %capsule_ldflags -lm
// RUN: bash -c 'ulimit -s 8192 && %t2c 20000'
// RUN: bash -c 'ulimit -s 8192 && %t0 20000'
// RUN: not bash -c 'ulimit -s 8192 && %t0 100000' 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not bash -c 'ulimit -s 8192 && %t2c 100000' 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not bash -c 'ulimit -s 8192 && %t0c 100000' 2>&1 | FileCheck %s --check-prefix=STOP
// STOP: capsule: the machine stack overflowed in differentiated or interruptible code{{.*}}ulimit -s
// RUN: bash -c 'ulimit -s 1048576 && %t0 100000 && %t2c 100000 && %t0c 100000'
#include <stdlib.h>
#include <capsule/capsule.h>
#include "check.h"

double rec(double x, long n) {
  if (n == 0)
    return x;
  return sin(rec(x, n - 1)) * 0.5 + x * 0.01;
}

static long depth;
double f(double x) { return rec(x, depth); }
static double fd(double *x, void *ctx) {
  (void)ctx;
  return f(x[0]);
}

int main(int argc, char **argv) {
  depth = argc > 1 ? atol(argv[1]) : 1000;
  double x = 0.7;
  double d = __capsule_autodiff((void *)f, x);
  check_grad_fd("d/dx f at the given depth", &d, fd, 0, &x, 1);
  return check_report();
}
