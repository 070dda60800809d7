// libm sqrt, cbrt (negative argument too) and hypot (two out args).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct { double dx, dy; } Grad2;
Grad2 __capsule_autodiff_2(void *, ...);

static double f_sqrt(double x) { return sqrt(x * x + x) * x; }
static double f_cbrt(double x) { return cbrt(x) + cbrt(x * x); }
static double f_hypot(double x, double y) { return hypot(x, y) * y; }

int main(void) {
  double x = 1.7, s = sqrt(x * x + x);
  check_scalar("sqrt(x^2+x) x",
               __capsule_autodiff((void *)f_sqrt, capsule_out, x), f_sqrt, x,
               (2 * x + 1) / (2 * s) * x + s);
  x = -2.4; /* cbrt is smooth for negative x */
  check_scalar("cbrt(x)+cbrt(x^2)",
               __capsule_autodiff((void *)f_cbrt, capsule_out, x), f_cbrt, x,
               1.0 / (3.0 * cbrt(x) * cbrt(x)) +
                   2.0 * x / (3.0 * cbrt(x * x) * cbrt(x * x)));
  double a = -1.1, b = 0.8, h = hypot(a, b);
  Grad2 g = __capsule_autodiff_2((void *)f_hypot, capsule_out, a, capsule_out, b);
  check_scalar2("hypot(x,y) y", g.dx, g.dy, f_hypot, a, b, a / h * b,
                b / h * b + h);
  return check_report();
}
