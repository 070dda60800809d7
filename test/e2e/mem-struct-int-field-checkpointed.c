// A struct of doubles and an int, copied by value into a helper that loops
// and indexes with the int: in a checkpointed gradient at -O2 the struct
// lives in a step function's record, and the int field's load (an i32 at
// an offset in the record, without TBAA after inlining) was refused as
// "floating-point data read as integer bits" because other fields of the
// record hold doubles (found by capsule-fuzz, seed 7). What the bytes at
// that very address are loaded and stored as decides.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

struct state {
  double a;
  double b[3];
  int k;
};
static double level = 0.3;
static double g[5] = {-0.7, -0.9, 0.9, 0.1, -0.2};
static const double c[4] = {1.0, 2.0, 3.0, 4.0};

static struct state step(struct state q, double s) {
  for (int j = 0; j < 3 && level < g[(unsigned)(int)(4.4 * tanh(q.a)) % 5];
       j++)
    q.b[(unsigned)(q.k + (int)(6.9 * tanh(q.b[q.k % 3]))) % 3] =
        sin(level) * s;
  return q;
}

double f(const double *x, int n) {
  double v = x[1];
  struct state s;
  s.a = x[0];
  for (int k = 0; k < 3; k++)
    s.b[k] = x[(k + 1) % n];
  s.k = 3;
  switch (s.k % 2) {
  case 1:
    v = s.b[(unsigned)(int)(2.9 * tanh(s.a)) % 3];
    s = step(s, exp(sin(c[n % 4])));
    break;
  default:
    break;
  }
  return s.a * s.b[0] + s.b[1] * s.b[2] + s.k + v;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 5;
  double x[5] = {0.5, 0.7, 1.1, -0.3, 0.2};
  double dx[5] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 5);
  return check_report();
}
