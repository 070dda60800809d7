// Interruptible execution: branches that merge many values into phis (a
// three-way classification, a conditional adjustment, a loop-carried swap
// of two variables like Fibonacci's (a, b) = (b, a + b), and values live
// across several joins); the per-element outputs and the returned
// combination must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

long phis(const int *in, int *out, double *dout, int n) {
  long a = 0, b = 1;
  double acc = 0.5;
  int kind_prev = 0;
  for (int i = 0; i < n; ++i) {
    int x = in[i], y, z;
    double w;
    if (x & 1) {
      y = 3 * x + 1;
      z = 1;
      w = x * 0.5;
    } else if (x % 4 == 0) {
      y = x / 4;
      z = 2;
      w = -x * 0.25;
    } else {
      y = x / 2;
      z = 3;
      w = acc;
    }
    if (y > 10) {
      y -= 10;
      z += kind_prev;
    } else if (y < 0) {
      y = -y;
      w = -w;
    }
    long t = a;
    a = b;
    b = t + b;
    if (z == kind_prev) {
      t = a;
      a = b;
      b = t;
    }
    acc = acc * 0.75 + w;
    kind_prev = z;
    out[i] = y * 10 + z;
    dout[i] = acc;
  }
  return a * 1000003 + b + kind_prev;
}

static int in[24], out[24];
static double dout[24];
static void reset(void) {
  for (int i = 0; i < 24; ++i) {
    in[i] = (i * 37) % 29 - 9;
    out[i] = 0;
    dout[i] = 0;
  }
}
DEFINE_RUNNERS(long, phis, in, out, dout, 24)
static const struct region regions[] = {
    {in, sizeof in}, {out, sizeof out}, {dout, sizeof dout}};

int main(void) {
  struct program p = {
      "cf-phi-branches", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,     regions,      3,     4096};
  return check_interruptible(&p) != 0;
}
