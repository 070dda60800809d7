// Interruptible execution: counted loops running up, down and with a stride
// over long and double arrays; the prefix sums written in place, the scaled
// doubles and the returned total must be identical after an interruption at
// any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

long prefix(long *a, double *d, int n) {
  long total = 0;
  for (int i = 1; i < n; ++i)
    a[i] += a[i - 1];
  for (int i = n - 1; i >= 0; i -= 2)
    d[i] = d[i] * 0.5 + (double)a[i];
  for (unsigned i = 0; i < (unsigned)n; i += 3)
    total += a[i] * (long)(i + 1);
  return total;
}

static long a[40];
static double d[40];
static void reset(void) {
  for (int i = 0; i < 40; ++i) {
    a[i] = (i * 7) % 11 - 3;
    d[i] = i * 0.25;
  }
}
DEFINE_RUNNERS(long, prefix, a, d, 40)
static const struct region regions[] = {{a, sizeof a}, {d, sizeof d}};

int main(void) {
  struct program p = {"loop-counted", sizeof(long),  reset,   plain_run,
                      primops_run,    interrupt_run, regions, 2,
                      4096 + 1024};
  return check_interruptible(&p) != 0;
}
