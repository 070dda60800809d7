// Interruptible execution: loops built with goto, including an irreducible
// one (two entries into the same cycle, chosen by the data) and a
// backward goto out of a nested loop; the state machine's trace and the
// returned value must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

long gotos(const int *in, int n, int *trace) {
  long acc = 0;
  int t = 0;
  for (int i = 0; i < n; ++i) {
    int x = in[i], steps = 0;
    /* Irreducible: the cycle {odd, even} is entered at either block. */
    if (x & 1)
      goto odd;
    else
      goto even;
  odd:
    if (x <= 1 || steps > 40)
      goto done;
    x = 3 * x + 1;
    ++steps;
  even:
    x /= 2;
    ++steps;
    if (x & 1)
      goto odd;
    if (x > 1)
      goto even;
  done:
    trace[t++] = steps;
    acc = acc * 3 + x;
  }
  /* A backward goto restarting a nested search. */
  int restarts = 0, a = 0, b = 0;
again:
  for (a = 0; a < 6; ++a)
    for (b = 0; b < 6; ++b)
      if (a * b == 12 + restarts && restarts < 3) {
        ++restarts;
        trace[t++] = a * 10 + b;
        goto again;
      }
  return acc * 100 + restarts;
}

static int in[12], trace[16];
static void reset(void) {
  static const int v[12] = {7, 8, 1, 2, 27, 6, 15, 16, 3, 40, 11, 5};
  memcpy(in, v, sizeof in);
  memset(trace, 0, sizeof trace);
}
DEFINE_RUNNERS(long, gotos, in, 12, trace)
static const struct region regions[] = {{in, sizeof in}, {trace, sizeof trace}};

int main(void) {
  struct program p = {
      "loop-goto-irreducible", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,           regions,      2,     4096};
  return check_interruptible(&p) != 0;
}
