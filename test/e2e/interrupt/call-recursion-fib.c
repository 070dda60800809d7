// Interruptible execution: plain recursion (doubly recursive Fibonacci,
// Ackermann's function, a recursive power with an accumulator parameter);
// the values written per input and the returned sum must be identical after
// an interruption at any step, including deep inside the recursion
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static long ack(long m, long n) {
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

static double rpow(double x, int n, double acc) {
  if (n == 0)
    return acc;
  return rpow(x, n - 1, acc * x);
}

long recurse(const int *n, long *out, int count) {
  long s = 0;
  for (int i = 0; i < count; ++i) {
    out[i] = fib(n[i]);
    s += out[i];
  }
  s += ack(2, 3) * 1000;
  s += (long)rpow(1.5, 20, 1.0);
  return s;
}

static int n[5];
static long out[5];
static void reset(void) {
  static const int v[5] = {1, 5, 12, 3, 9};
  for (int i = 0; i < 5; ++i) {
    n[i] = v[i];
    out[i] = 0;
  }
}
DEFINE_RUNNERS(long, recurse, n, out, 5)
static const struct region regions[] = {{n, sizeof n}, {out, sizeof out}};

int main(void) {
  struct program p = {
      "call-recursion-fib", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,        regions,      2,     8192};
  return check_interruptible(&p) != 0;
}
