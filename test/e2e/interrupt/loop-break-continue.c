// Interruptible execution: a scan with continue (skip negatives and
// multiples of 3 after recording them), an inner loop left by break (the
// smallest divisor) and an outer break at a sentinel; the recorded values
// and the returned count must be identical after an interruption at any
// step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

int scan(const int *a, int n, int *out) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0)
      continue;
    if (a[i] == 999)
      break;
    if (a[i] % 3 == 0) {
      out[count++] = a[i];
      continue;
    }
    int found = 0;
    for (int j = 2; j * j <= a[i]; ++j) {
      if (a[i] % j == 0) {
        out[count++] = j;
        found = 1;
        break;
      }
    }
    if (!found)
      out[count++] = -a[i];
  }
  return count;
}

static int a[24], out[24];
static void reset(void) {
  static const int v[24] = {35, -4, 9,   49,  97, -1, 121, 12, 77, 91, 2,  143,
                            1,  18, 221, 999, 5,  7,  11,  13, 17, 19, 23, 29};
  for (int i = 0; i < 24; ++i) {
    a[i] = v[i];
    out[i] = 0;
  }
}
DEFINE_RUNNERS(int, scan, a, 24, out)
static const struct region regions[] = {{a, sizeof a}, {out, sizeof out}};

int main(void) {
  struct program p = {
      "loop-break-continue", sizeof(int), reset, plain_run, primops_run,
      interrupt_run,         regions,     2,     4096};
  return check_interruptible(&p) != 0;
}
