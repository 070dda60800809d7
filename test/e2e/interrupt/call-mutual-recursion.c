// Interruptible execution: mutual recursion (is_even / is_odd calling each
// other, and Hofstadter's female and male sequences F(n) = n - M(F(n - 1)),
// M(n) = n - F(M(n - 1))); the sequences written to arrays and the returned
// parity count must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int hof_m(int n);
static int hof_f(int n) { return n == 0 ? 1 : n - hof_m(hof_f(n - 1)); }
static int hof_m(int n) { return n == 0 ? 0 : n - hof_f(hof_m(n - 1)); }

int mutual(const unsigned *in, int n, int *f, int *m, int len) {
  int evens = 0;
  for (int i = 0; i < n; ++i)
    evens += is_even(in[i]);
  for (int i = 0; i < len; ++i) {
    f[i] = hof_f(i);
    m[i] = hof_m(i);
  }
  return evens * 100 + f[len - 1] + m[len - 1];
}

static unsigned in[6];
static int f[12], m[12];
static void reset(void) {
  static const unsigned v[6] = {0, 1, 17, 40, 23, 8};
  memcpy(in, v, sizeof in);
  memset(f, 0, sizeof f);
  memset(m, 0, sizeof m);
}
DEFINE_RUNNERS(int, mutual, in, 6, f, m, 12)
static const struct region regions[] = {
    {in, sizeof in}, {f, sizeof f}, {m, sizeof m}};

int main(void) {
  struct program p = {
      "call-mutual-recursion", sizeof(int), reset, plain_run, primops_run,
      interrupt_run,           regions,     3,     8192};
  return check_interruptible(&p) != 0;
}
