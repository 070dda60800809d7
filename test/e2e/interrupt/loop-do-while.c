// Interruptible execution: do-while loops (Collatz trajectories, digit sums,
// Euclid's gcd) whose bodies run at least once and whose trip counts depend
// on the data; the per-input lengths and the returned checksum must be
// identical after an interruption at any step (interrupt_check.h lists the
// checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

long dowhile(const long *in, int *len, int n) {
  long check = 0;
  int i = 0;
  do {
    long x = in[i];
    int steps = 0;
    do {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      ++steps;
    } while (x != 1);
    len[i] = steps;
    long y = in[i], digits = 0;
    do {
      digits += y % 10;
      y /= 10;
    } while (y);
    long a = in[i], b = 84, r;
    do {
      r = a % b;
      a = b;
      b = r;
    } while (r);
    check = check * 31 + digits * 1000 + a;
  } while (++i < n);
  return check;
}

static long in[7];
static int len[7];
static void reset(void) {
  static const long v[7] = {27, 1, 7, 97, 12, 63, 6};
  for (int i = 0; i < 7; ++i) {
    in[i] = v[i];
    len[i] = 0;
  }
}
DEFINE_RUNNERS(long, dowhile, in, len, 7)
static const struct region regions[] = {{in, sizeof in}, {len, sizeof len}};

int main(void) {
  struct program p = {
      "loop-do-while", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,   regions,      2,     4096};
  return check_interruptible(&p) != 0;
}
