// Interruptible execution: stack arrays and a stack struct whose addresses
// escape to callees (filled, smoothed in place, linked from another stack
// struct and read back through it), so they must survive an interruption
// inside the callee; the caller's output array and the returned value must
// be identical after an interruption at any step (interrupt_check.h lists
// the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct view {
  double *data;
  int len;
  double *scratch;
};

__attribute__((noinline)) static void fill(double *a, int n, double seed) {
  for (int i = 0; i < n; ++i) {
    seed = seed * 1.1 + 0.3;
    a[i] = seed - (int)seed;
  }
}

__attribute__((noinline)) static void smooth(struct view *v) {
  for (int pass = 0; pass < 3; ++pass) {
    for (int i = 0; i < v->len; ++i)
      v->scratch[i] = v->data[i];
    for (int i = 1; i + 1 < v->len; ++i)
      v->data[i] = (v->scratch[i - 1] + v->scratch[i] + v->scratch[i + 1]) / 3;
  }
}

static double reduce(const struct view *v) {
  double s = 0;
  for (int i = 0; i < v->len; ++i)
    s += v->data[i] * (i + 1);
  return s;
}

double escape(double *out, int n) {
  double data[16], scratch[16];
  int counts[4] = {0, 0, 0, 0};
  fill(data, 16, 0.7);
  struct view v = {data, 16, scratch};
  struct view *pv = &v;
  smooth(pv);
  for (int i = 0; i < 16; ++i)
    counts[(int)(data[i] * 4) & 3] += 1;
  double r = reduce(&v);
  for (int i = 0; i < n; ++i)
    out[i] = data[i] + counts[i & 3];
  return r;
}

static double out[16];
static void reset(void) { memset(out, 0, sizeof out); }
DEFINE_RUNNERS(double, escape, out, 16)
static const struct region regions[] = {{out, sizeof out}};

int main(void) {
  struct program p = {
      "data-stack-escape", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,       regions,        1,     4096};
  return check_interruptible(&p) != 0;
}
