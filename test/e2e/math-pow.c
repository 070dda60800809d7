// pow with constant integer exponent (negative base), constant fractional exponent, active exponent; __builtin_powi with constant and runtime exponents.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct { double dx, dy; } Grad2;
Grad2 __capsule_autodiff_2(void *, ...);

static double f_cube(double x) { return pow(x, 3.0); }
static double f_frac(double x) { return pow(x, 2.5) + pow(x, 0.5); }
static double f_pow(double x, double y) { return pow(x, y); }
static double f_powi(double x) {
  return __builtin_powi(x, 5) + __builtin_powi(x, -2);
}
double f_powin(double x, int n) { return __builtin_powi(x, n) * x; }

static int N = 4;
static double f_powin_fd(double x) { return f_powin(x, N); }

int main(void) {
  double x = -1.3; /* a negative base is fine with an integer exponent */
  check_scalar("pow(x,3), x<0",
               __capsule_autodiff((void *)f_cube, capsule_out, x), f_cube, x,
               3.0 * x * x);
  x = 1.4;
  check_scalar("pow(x,3), x>0",
               __capsule_autodiff((void *)f_cube, capsule_out, x), f_cube, x,
               3.0 * x * x);
  check_scalar("pow(x,2.5)+pow(x,0.5)",
               __capsule_autodiff((void *)f_frac, capsule_out, x), f_frac, x,
               2.5 * pow(x, 1.5) + 0.5 / sqrt(x));

  double a = 1.6, b = 2.3;
  Grad2 g = __capsule_autodiff_2((void *)f_pow, capsule_out, a, capsule_out, b);
  check_scalar2("pow(x,y)", g.dx, g.dy, f_pow, a, b, b * pow(a, b - 1.0),
                pow(a, b) * log(a));
  a = 0.7; b = -1.8; /* base < 1, negative exponent */
  g = __capsule_autodiff_2((void *)f_pow, capsule_out, a, capsule_out, b);
  check_scalar2("pow(x,y) b<0", g.dx, g.dy, f_pow, a, b, b * pow(a, b - 1.0),
                pow(a, b) * log(a));

  x = -0.9;
  check_scalar("powi(x,5)+powi(x,-2)",
               __capsule_autodiff((void *)f_powi, capsule_out, x), f_powi, x,
               5.0 * pow(x, 4.0) - 2.0 * pow(x, -3.0));
  x = 1.15;
  check_scalar("powi(x,n) x, n runtime",
               __capsule_autodiff((void *)f_powin, capsule_out, x,
                                  capsule_const, N),
               f_powin_fd, x, 5.0 * pow(x, 4.0));
  return check_report();
}
