// libm sin, cos, tan (and compositions) on out scalars and on a dup array.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double f_sin(double x) { return sin(x) * x; }
static double f_cos(double x) { return cos(x) / (1.0 + x * x); }
static double f_tan(double x) { return tan(x); }
static double f_nest(double x) { return sin(cos(x)) * tan(0.5 * x); }

double g(const double *x) { return sin(x[0]) * cos(x[1]) + tan(x[0] * x[1]); }
static double g_fd(double *x, void *ctx) {
  (void)ctx;
  return g(x);
}

int main(void) {
  double x = 0.7, t = 0.4, c;
  check_scalar("sin(x) x", __capsule_autodiff((void *)f_sin, capsule_out, x),
               f_sin, x, cos(x) * x + sin(x));
  x = -1.2;
  c = -sin(x) / (1 + x * x) - cos(x) * 2 * x / ((1 + x * x) * (1 + x * x));
  check_scalar("cos(x)/(1+x^2)", __capsule_autodiff((void *)f_cos, x), f_cos,
               x, c);
  check_scalar("tan", __capsule_autodiff((void *)f_tan, capsule_out, t),
               f_tan, t, 1.0 / (cos(t) * cos(t)));
  x = 0.9;
  c = cos(cos(x)) * -sin(x) * tan(0.5 * x) +
      sin(cos(x)) * 0.5 / (cos(0.5 * x) * cos(0.5 * x));
  check_scalar("sin(cos x) tan(x/2)",
               __capsule_autodiff((void *)f_nest, capsule_out, x), f_nest, x,
               c);

  double v[2] = {0.3, 1.1}, dv[2] = {0, 0};
  double p = v[0] * v[1], sec2 = 1.0 / (cos(p) * cos(p));
  double cf[2] = {cos(v[0]) * cos(v[1]) + sec2 * v[1],
                  -sin(v[0]) * sin(v[1]) + sec2 * v[0]};
  __capsule_autodiff_v((void *)g, capsule_dup, v, dv);
  check_grad_cf_fd("dv", dv, cf, g_fd, 0, v, 2);
  return check_report();
}
