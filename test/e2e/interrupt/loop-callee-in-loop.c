// Interruptible execution: a loop whose body calls a function with a loop of
// its own; the result and the array it updates in place must be identical
// after an interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

static double weigh(double x, int k) {
  double s = 0;
  for (int i = 0; i < k; ++i)
    s += x * i;
  return s;
}

double update(double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    a[i] = a[i] * 2 + weigh(a[i], 3);
    s += a[i];
  }
  return s;
}

static double a[8];
static void reset(void) {
  for (int i = 0; i < 8; ++i)
    a[i] = i * 0.5 + 1;
}
DEFINE_RUNNERS(double, update, a, 8)
static const struct region regions[] = {{a, sizeof a}};

int main(void) {
  struct program p = {"loop-callee-in-loop", sizeof(double), reset, plain_run,
                      primops_run, interrupt_run, regions, 1, 4096};
  return check_interruptible(&p) != 0;
}
