// libm asin, acos, atan, atan2 (two out args returning a struct of adjoints, all four quadrants).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct { double dy, dx; } Grad2;
Grad2 __capsule_autodiff_2(void *, ...);

static double f_asin(double x) { return asin(x) * x; }
static double f_acos(double x) { return acos(x * x); }
static double f_atan(double x) { return atan(3.0 * x) + x; }
static double f_atan2(double y, double x) { return atan2(y, x) * (1.0 + y * x); }

int main(void) {
  double x = 0.35;
  check_scalar("asin(x) x", __capsule_autodiff((void *)f_asin, capsule_out, x),
               f_asin, x, x / sqrt(1 - x * x) + asin(x));
  x = -0.6;
  check_scalar("acos(x^2)", __capsule_autodiff((void *)f_acos, capsule_out, x),
               f_acos, x, -2 * x / sqrt(1 - x * x * x * x));
  x = 0.8;
  check_scalar("atan(3x)+x", __capsule_autodiff((void *)f_atan, capsule_out, x),
               f_atan, x, 3.0 / (1 + 9 * x * x) + 1.0);

  /* One point per quadrant, away from the branch cut at x < 0, y = 0. */
  double pts[4][2] = {{0.7, 1.3}, {0.9, -0.4}, {-0.5, -1.1}, {-1.2, 0.6}};
  for (int k = 0; k < 4; k++) {
    double y = pts[k][0], xx = pts[k][1];
    char name[32];
    Grad2 g = __capsule_autodiff_2((void *)f_atan2, capsule_out, y,
                                   capsule_out, xx);
    double r2 = xx * xx + y * y, a = atan2(y, xx), w = 1 + y * xx;
    snprintf(name, sizeof name, "atan2 quadrant %d", k + 1);
    /* f = a(y,x) w: d/dy = x/r2 w + a x, d/dx = -y/r2 w + a y */
    check_scalar2(name, g.dy, g.dx, f_atan2, y, xx, xx / r2 * w + a * xx,
                  -y / r2 * w + a * y);
  }
  return check_report();
}
