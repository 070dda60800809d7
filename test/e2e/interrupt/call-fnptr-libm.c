// Interruptible execution: function pointers to functions defined outside
// the module (libm's sin, cos, sqrt, exp, fabs, atan in a table, and libc's
// free as a release callback stored in a struct), mixed with pointers to
// functions of the module of the same type; the values written and the
// returned sum must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <math.h>

typedef double (*unary)(double);

static double twice(double x) { return 2 * x; }

static unary table[] = {sin, cos, sqrt, exp, fabs, atan, twice};

struct buffer {
  double *data;
  void (*release)(void *);
};

__attribute__((noinline)) static double apply(unary f, double x) {
  return f(x);
}

double libm_ptrs(const double *x, int n, double *out) {
  struct buffer b = {(double *)malloc((size_t)n * sizeof(double)), free};
  double s = 0;
  for (int i = 0; i < n; ++i) {
    unary f = table[i % 7];
    b.data[i] = f(fabs(x[i]) + 0.5);
    out[i] = apply(table[(i + 3) % 7], b.data[i]);
    s += out[i];
  }
  b.release(b.data);
  return s;
}

static double x[14], out[14];
static void reset(void) {
  for (int i = 0; i < 14; ++i) {
    x[i] = i * 0.37 - 2;
    out[i] = 0;
  }
}
DEFINE_RUNNERS(double, libm_ptrs, x, 14, out)
static const struct region regions[] = {{x, sizeof x}, {out, sizeof out}};

int main(void) {
  struct program p = {
      "call-fnptr-libm", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,     regions,        2,     8192};
  return check_interruptible(&p) != 0;
}
