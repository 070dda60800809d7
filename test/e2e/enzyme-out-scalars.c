// Enzyme spellings: enzyme_out scalars (double result and a struct of adjoints) and unmarked doubles defaulting to out.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include "include/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);
typedef struct { double dx, dy; } Grad2;
Grad2 __enzyme_autodiff2(void *, ...);

double f1(double x) { return x * x * sin(x); }
double f2(double x, double y) { return log(x * x + y) * y - x / y; }

int main(void) {
  double x = 1.2, y = 0.7;
  check_scalar("f1 dx", __enzyme_autodiff((void *)f1, enzyme_out, x), f1, x,
               2.0 * x * sin(x) + x * x * cos(x));
  double q = x * x + y;
  double cx = 2.0 * x / q * y - 1.0 / y, cy = log(q) + y / q + x / (y * y);
  Grad2 g = __enzyme_autodiff2((void *)f2, enzyme_out, x, enzyme_out, y);
  check_scalar2("f2 (enzyme_out)", g.dx, g.dy, f2, x, y, cx, cy);
  Grad2 h = __enzyme_autodiff2((void *)f2, x, y);
  check_scalar2("f2 (unmarked)", h.dx, h.dy, f2, x, y, cx, cy);
  return check_report();
}
