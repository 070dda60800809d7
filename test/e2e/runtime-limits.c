// The runtime settings seen from a differentiated program: a tape limit that
// the gradient exceeds stops it with a message naming the limit and how to
// raise it (exit 3, before any wrong result is printed); invalid settings
// are named errors (exit 2); CAPSULE_STATS prints one line per gradient;
// a limit large enough lets the same gradient through, and it is right.
// RUN: %clang -O2 %capsule_cflags %s -o %t %capsule_ldflags
// RUN: env CAPSULE_TAPE_LIMIT=64K %t > %t.limit 2>&1; test $? -eq 3
// RUN: FileCheck %s --check-prefix=LIMIT < %t.limit
// RUN: env CAPSULE_TAPE_LIMIT=lots %t > %t.bad 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=BAD < %t.bad
// RUN: env CAPSULE_STATS=maybe %t > %t.badstats 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=BADSTATS < %t.badstats
// RUN: env CAPSULE_TAPE_LIMIT=64M CAPSULE_STATS=1 %t 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags

// LIMIT: capsule: {{.*}}limit of 64.0 KiB (65536 bytes){{.*}}CAPSULE_TAPE_LIMIT
// LIMIT-NOT: PASS
// BAD: capsule: invalid CAPSULE_TAPE_LIMIT value 'lots'
// BADSTATS: capsule: invalid CAPSULE_STATS value 'maybe'
// OK: capsule: gradient call 1: peak tape
// OK: PASS

#include <capsule/capsule.h>
#include <math.h>
#include "include/check.h"

/* Tapes a few bytes per iteration: about 800 KiB for n = 100000. */
static double f(double x, long n) {
  double s = x;
  for (long i = 0; i < n; i++)
    s = sin(s) + x;
  return s;
}

static double f_fd(double *x, void *ctx) { return f(*x, *(long *)ctx); }

int main(void) {
  long n = 100000;
  double x = 0.5;
  double dx = __capsule_autodiff((void *)f, capsule_out, x, capsule_const, n);
  double one[1] = {x}, got[1] = {dx};
  check_grad_fd("df/dx", got, f_fd, &n, one, 1);
  return check_report();
}
