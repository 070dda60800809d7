// fneg on scalar double args marked capsule_out (one out: double result; two outs: struct of 2) and unmarked (default out).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct { double a, b; } Grad2;
Grad2 __capsule_autodiff_2(void *, ...);

double f3(double a, double b, double c) {
  double na = -a;
  return na * b + (-c) * c / a - (-(b - c)) * c;
}

double f2(double x, double y) { return -(x * x * y) - -y / x; }

static double A = 1.7, B = -0.6, C = 0.45;
static double f3_a(double a) { return f3(a, B, C); }
static double f3_b(double b) { return f3(A, b, C); }
static double f3_c(double c) { return f3(A, B, c); }

int main(void) {
  /* f3 = -a b - c^2/a + (b - c) c */
  Grad2 g = __capsule_autodiff_2((void *)f3, capsule_out, A, capsule_out, B,
                                 capsule_const, C);
  check_scalar("df3/da", g.a, f3_a, A, -B + C * C / (A * A));
  check_scalar("df3/db", g.b, f3_b, B, -A + C);
  double dc = __capsule_autodiff((void *)f3, capsule_const, A, capsule_const, B,
                                 capsule_out, C);
  check_scalar("df3/dc", dc, f3_c, C, -2.0 * C / A + B - 2.0 * C);

  /* f2 = -x^2 y + y/x, both args unmarked: out by default. */
  double x = 1.3, y = -2.2;
  Grad2 h = __capsule_autodiff_2((void *)f2, x, y);
  check_scalar2("f2", h.a, h.b, f2, x, y, -2.0 * x * y - y / (x * x),
                -x * x + 1.0 / x);
  return check_report();
}
