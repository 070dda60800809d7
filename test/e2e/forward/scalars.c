// Forward mode on scalars passed by value: the tangent of the result for unmarked, dup and const doubles, through libm's functions of one and two arguments, piecewise functions, integer arguments, float, and Enzyme's spelling.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <math.h>
#include <capsule/capsule.h>
#include "check.h"

int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);

static double f_sin(double x) { return sin(x) * cos(2 * x) + tan(x / 3); }
static double f_exp(double x) { return exp(x) - exp2(x) + expm1(x / 2); }
static double f_log(double x) { return log(x) + log2(x) * log10(x) + log1p(x); }
static double f_root(double x) { return sqrt(x) + cbrt(x) + 1 / sqrt(x); }
static double f_hyp(double x) { return sinh(x) + cosh(x) * tanh(x); }
static double f_inv(double x) { return asin(x) + acos(x / 2) + atan(x); }
static double f_erf(double x) { return erf(x) + ldexp(x, 3); }
static double f_piece(double x) {
  return fabs(x) * floor(x) + (x > 0.5 ? x * x : -x);
}
static double f_pow(double x, double y) { return pow(x, y) + atan2(y, x); }
static double f_hypot(double x, double y) {
  return hypot(x, y) + fmin(x, y) * fmax(x, y) + copysign(x, -y);
}
static double f_fmod(double x, double y) { return fmod(x, y) + fma(x, y, x); }
static double f_div(double x, double y) {
  return (x - y) / (x * y) - (y / x) / (1 + x);
}
/* An integer argument is constant; a double marked const has no tangent. */
static double f_mixed(double a, int n, double b, double c) {
  double s = 0;
  for (int i = 1; i <= n; i++)
    s += pow(a, i) * b / i + c;
  return s * c;
}
static double mixed_a(double a) { return f_mixed(a, 4, 0.7, -1.3); }
static double mixed_b(double b) { return f_mixed(0.9, 4, b, -1.3); }
/* float: C promotes the marker's float arguments to double; the marker's
 * declared float result takes the float tangent. */
static float f_float(float x, float y) { return sinf(x) * y + x * x * y; }
float __capsule_fwddiff_f(void *, ...);

int main(void) {
  double x = 0.4, y = 1.7;
  check_scalar("sin cos tan", __capsule_fwddiff((void *)f_sin, x, 1.0), f_sin,
               x, cos(x) * cos(2 * x) - 2 * sin(x) * sin(2 * x) +
                      1 / (3 * cos(x / 3) * cos(x / 3)));
  check_scalar("exp exp2 expm1", __capsule_fwddiff((void *)f_exp, x, 1.0),
               f_exp, x, exp(x) - log(2) * exp2(x) + exp(x / 2) / 2);
  check_scalar("log log2 log10 log1p",
               __capsule_fwddiff((void *)f_log, capsule_dup, y, 1.0), f_log, y,
               1 / y + log10(y) / (y * log(2)) + log2(y) / (y * log(10)) +
                   1 / (1 + y));
  check_scalar("sqrt cbrt", __capsule_fwddiff((void *)f_root, y, 1.0), f_root,
               y, 0.5 / sqrt(y) + 1 / (3 * cbrt(y) * cbrt(y)) -
                      0.5 / (y * sqrt(y)));
  check_scalar("sinh cosh tanh", __capsule_fwddiff((void *)f_hyp, x, 1.0),
               f_hyp, x, cosh(x) + sinh(x) * tanh(x) + 1 / cosh(x));
  check_scalar("asin acos atan", __capsule_fwddiff((void *)f_inv, x, 1.0),
               f_inv, x, 1 / sqrt(1 - x * x) - 0.5 / sqrt(1 - x * x / 4) +
                      1 / (1 + x * x));
  check_scalar("erf ldexp", __capsule_fwddiff((void *)f_erf, x, 1.0), f_erf, x,
               2 / sqrt(M_PI) * exp(-x * x) + 8);
  check_scalar("fabs floor select", __capsule_fwddiff((void *)f_piece, y, 1.0),
               f_piece, y, floor(y) + 2 * y);
  check_scalar("fabs floor select (x<0)",
               __capsule_fwddiff((void *)f_piece, -1.3, 1.0), f_piece, -1.3,
               -floor(-1.3) - 1);

  /* Two arguments: one tangent at a time, then both at once. */
  double px = __capsule_fwddiff((void *)f_pow, x, 1.0, y, 0.0);
  double py = __capsule_fwddiff((void *)f_pow, x, 0.0, y, 1.0);
  check_scalar2("pow atan2", px, py, f_pow, x, y,
                y * pow(x, y - 1) - y / (x * x + y * y),
                pow(x, y) * log(x) + x / (x * x + y * y));
  check_cf("pow atan2 both",
           __capsule_fwddiff((void *)f_pow, x, 0.3, y, -2.0),
           0.3 * px - 2.0 * py);
  double hx = __capsule_fwddiff((void *)f_hypot, x, 1.0, y, 0.0);
  double hy = __capsule_fwddiff((void *)f_hypot, x, 0.0, y, 1.0);
  check_scalar2("hypot fmin fmax copysign", hx, hy, f_hypot, x, y,
                x / hypot(x, y) + y - 1, y / hypot(x, y) + x);
  double mx = __capsule_fwddiff((void *)f_fmod, 5.3, 1.0, 1.7, 0.0);
  double my = __capsule_fwddiff((void *)f_fmod, 5.3, 0.0, 1.7, 1.0);
  check_scalar2("fmod fma", mx, my, f_fmod, 5.3, 1.7, 1 + 1.7 + 1,
                -trunc(5.3 / 1.7) + 5.3);
  double dx = __capsule_fwddiff((void *)f_div, x, 1.0, y, 0.0);
  double dy = __capsule_fwddiff((void *)f_div, x, 0.0, y, 1.0);
  check_scalar2("div", dx, dy, f_div, x, y,
                1 / (x * y) - (x - y) / (x * x * y) + y / (x * x) / (1 + x) +
                    (y / x) / ((1 + x) * (1 + x)),
                -1 / (x * y) - (x - y) / (x * y * y) - 1 / x / (1 + x));

  /* Markers: an int is constant unmarked; a const double takes no
   * tangent; Enzyme's spelling. */
  double a = 0.9, b = 0.7, c = -1.3;
  double da = 0, db = 0;
  for (int i = 1; i <= 4; i++) {
    da += pow(a, i - 1) * b * c;
    db += pow(a, i) / i * c;
  }
  check_scalar("const double and int: d/da",
               __capsule_fwddiff((void *)f_mixed, a, 1.0, capsule_const, 4,
                                 capsule_const, b, capsule_const, c),
               mixed_a, a, da);
  check_scalar("enzyme markers: d/db",
               __enzyme_fwddiff((void *)f_mixed, enzyme_const, a, 4,
                                enzyme_dup, b, 1.0, enzyme_const, c),
               mixed_b, b, db);
  check_close("float", __capsule_fwddiff_f((void *)f_float, 0.4f, 1.0f, 1.7f,
                                           0.5f),
              (cos(0.4) + 0.8) * 1.7 + (sin(0.4) + 0.16) * 0.5,
              CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  return check_report();
}
