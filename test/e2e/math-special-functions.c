// The rest of the C math library: inverse hyperbolic functions, erfc, exp10, tgamma and lgamma (whose derivatives need digamma and, nested, the polygamma functions), fdim, remainder and remquo, scalbn/scalbln, nextafter, Bessel functions, frexp, modf and sincos (results through pointers, into memory with derivatives), rounding to integers, float variants; gradients, tangents and second derivatives (forward over reverse) against finite differences. -fno-math-errno makes clang emit llvm.tanh-style intrinsics.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g -fno-math-errno %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g -fno-math-errno %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#define _GNU_SOURCE
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);
float __capsule_fwddiff_f(void *, ...);

/* Each function of one double takes x also in its second arguments, so
 * that both arguments of two-argument functions are differentiated. */
static double f_inverse_hyperbolic(double x) {
  return asinh(3 * x) + acosh(x + 1.5) * atanh(x / 2) + tanh(x) * sinh(x);
}
static double f_erfc_exp10(double x) {
  return erfc(x) * exp10(x / 2) + asin(x) * acos(x) / (1 + atan(x));
}
static double f_gamma(double x) {
  return tgamma(x + 0.5) + tgamma(-x - 0.5) * lgamma(3 * x) +
         lgamma(-1.5 - x);
}
static double f_fdim(double x) {
  return fdim(x * x, 0.1) + fdim(0.05, x) + fdim(x, x / 2) * x;
}
static double f_remainder(double x) {
  int q;
  double r = remquo(x * 7, 0.9, &q);
  return remainder(5 * x, 0.7) + remainder(2.0, x) + r * q;
}
static double f_scale(double x) {
  return scalbn(x, 3) + scalbln(x * x, -2L) + ldexp(x, 1) * x +
         nextafter(x, 10.0) * x;
}
static double f_bessel(double x) {
  return j0(x) + j1(2 * x) + y0(x) + y1(x + 1) + jn(3, x) * yn(2, x + 1);
}
static double f_frexp(double x) {
  int e;
  double m = frexp(x * 5, &e);
  return m * e + m * m;
}
static double f_modf(double x) {
  double ip;
  double fr = modf(x * 5, &ip);
  return fr * (1 + ip) + fr * fr;
}
static double f_sincos(double x) {
  double s, c;
  sincos(x * 2, &s, &c);
  return s * c + s * x;
}
/* Piecewise constant functions with integer results: derivative 0. */
static double f_round(double x) {
  return x * lround(3 * x) + x * logb(x) + ilogb(x) * x + llrint(x * 4) * x;
}

#define CHECK_ONE(F)                                                           \
  static double grad_##F(double x) {                                          \
    return __capsule_autodiff((void *)f_##F, x);                               \
  }                                                                            \
  static void check_##F(double x) {                                            \
    check_close(#F " gradient", grad_##F(x), check_fd1(f_##F, x),              \
                CHECK_FD_RTOL, CHECK_FD_ATOL);                                 \
    check_close(#F " tangent", __capsule_fwddiff((void *)f_##F, x, 1.0),       \
                check_fd1(f_##F, x), CHECK_FD_RTOL, CHECK_FD_ATOL);            \
    check_close(#F " second derivative",                                       \
                __capsule_fwddiff((void *)grad_##F, x, 1.0),                   \
                check_fd1(grad_##F, x), CHECK_FD_RTOL, CHECK_FD_ATOL);         \
  }
CHECK_ONE(inverse_hyperbolic)
CHECK_ONE(erfc_exp10)
CHECK_ONE(gamma)
CHECK_ONE(fdim)
CHECK_ONE(remainder)
CHECK_ONE(scale)
CHECK_ONE(bessel)
CHECK_ONE(frexp)
CHECK_ONE(modf)
CHECK_ONE(sincos)
CHECK_ONE(round)

/* Results through pointers into memory that has derivatives: what modf and
 * sincos overwrite loses its old derivative (x[2], x[3] and x[5] before the
 * calls); frexp's exponent lands in a struct beside doubles. */
struct parts {
  double mantissa;
  int exponent;
  double scale;
};
static double f_memory(double *x) {
  x[5] = x[4] * x[4];
  double fr = modf(x[0] * 3, &x[5]);
  sincos(x[1], &x[2], &x[3]);
  struct parts p;
  p.scale = x[1];
  p.mantissa = frexp(x[4] * 9, &p.exponent);
  int q, sign;
  double r = remquo(x[0] * 7, 0.9, &q);
  double lg = lgamma_r(-x[4] - 0.5, &sign);
  return fr * x[5] + x[2] * x[3] + p.mantissa * p.exponent * p.scale + r * q +
         sign * lg + x[5] * x[4];
}
static double f_memory_fd(double *x, void *ctx) {
  (void)ctx;
  return f_memory(x);
}

/* The float variants, against the same formula in double. */
static float f_float(float *x) {
  float ip, s, c;
  int e;
  sincosf(x[0], &s, &c);
  return asinhf(x[0]) * s + erfcf(x[1]) * c + lgammaf(x[2]) +
         tgammaf(x[1] + 1) + modff(x[2] * 3, &ip) * ip +
         frexpf(x[3] * 5, &e) * e + j0f(x[3]) + exp10f(x[0]) +
         atanhf(x[1] / 2);
}
static double f_float_ref(double *x, void *ctx) {
  (void)ctx;
  double ip;
  int e;
  return asinh(x[0]) * sin(x[0]) + erfc(x[1]) * cos(x[0]) + lgamma(x[2]) +
         tgamma(x[1] + 1) + modf(x[2] * 3, &ip) * ip +
         frexp(x[3] * 5, &e) * e + j0(x[3]) + exp10(x[0]) + atanh(x[1] / 2);
}

int main(void) {
  double x = 0.37;
  check_inverse_hyperbolic(x);
  check_erfc_exp10(x);
  check_gamma(x);
  check_fdim(x);
  check_remainder(x);
  check_scale(x);
  check_bessel(x);
  check_frexp(x);
  check_modf(x);
  check_sincos(x);
  check_round(x);
  /* lgamma's second derivative at a negative argument, and past a pole. */
  check_gamma(-1.3);

  double xm[6] = {0.41, 0.8, 2.5, -1.25, 0.33, 7.0};
  double dxm[6] = {0};
  double xs[6];
  memcpy(xs, xm, sizeof xs);
  __capsule_autodiff_v((void *)f_memory, capsule_dup, xs, dxm);
  check_grad_fd("memory outputs gradient", dxm, f_memory_fd, 0, xm, 6);
  for (int i = 0; i < 6; i++) {
    double t[6] = {0};
    t[i] = 1;
    memcpy(xs, xm, sizeof xs);
    double got = __capsule_fwddiff((void *)f_memory, capsule_dup, xs, t);
    check_close("memory outputs tangent", got,
                check_fd_partial(f_memory_fd, 0, xm, 6, i), CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  }

  float xf[4] = {0.5f, 0.3f, 1.75f, -0.7f};
  float dxf[4] = {0};
  double xd[4], dxd[4];
  __capsule_autodiff_v((void *)f_float, capsule_dup, xf, dxf);
  for (int i = 0; i < 4; i++) {
    xd[i] = xf[i];
    dxd[i] = dxf[i];
  }
  /* float: ~1e-7 rounding per operation, reference in double. */
  check_grad_fd_tol("float variants", dxd, f_float_ref, 0, xd, 4,
                    CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  return check_report();
}
