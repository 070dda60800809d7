// Interruptible execution: the function pointers are arguments of the
// interrupted function itself (the caller of the markers passes a
// transform and a predicate chosen in main), and are forwarded to a helper
// and stored in a local struct before being called; the filtered output and
// the returned count must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

typedef long (*transform_fn)(long);
typedef int (*predicate_fn)(long, long);

static long collatz_len(long x) {
  long n = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++n;
  }
  return n;
}
static int above(long v, long limit) { return v > limit; }

struct pipeline {
  transform_fn t;
  predicate_fn keep;
  long arg;
};

__attribute__((noinline)) static long step(const struct pipeline *p, long x) {
  long v = p->t(x);
  return p->keep(v, p->arg) ? v : -1;
}

int filter(const long *in, int n, long *out, transform_fn t, predicate_fn keep,
           long arg) {
  struct pipeline p = {t, keep, arg};
  int count = 0;
  for (int i = 0; i < n; ++i) {
    long v = step(&p, in[i]);
    if (v >= 0)
      out[count++] = v;
  }
  return count;
}

static long in[16], out[16];
static void reset(void) {
  for (int i = 0; i < 16; ++i) {
    in[i] = i * 3 + 1;
    out[i] = 0;
  }
}
DEFINE_RUNNERS(int, filter, in, 16, out, collatz_len, above, 15L)
static const struct region regions[] = {{in, sizeof in}, {out, sizeof out}};

int main(void) {
  struct program p = {
      "call-root-fnptr-arg", sizeof(int), reset, plain_run, primops_run,
      interrupt_run,         regions,     2,     4096};
  return check_interruptible(&p) != 0;
}
