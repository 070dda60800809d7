// C++ templates: a function template instantiated for double and float, and a class template recursing on a compile-time degree.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

template <typename T> T horner(const T *c, int n, T x) {
  T r = T(0);
  for (int i = n - 1; i >= 0; i--)
    r = r * x + c[i];
  return r;
}

template <int N> struct Poly {
  static double eval(const double *c, double x) {
    return c[0] + x * Poly<N - 1>::eval(c + 1, x);
  }
};
template <> struct Poly<0> {
  static double eval(const double *c, double) { return c[0]; }
};

template <int N> double poly_times_sin(const double *c, double x) {
  return Poly<N>::eval(c, x) * std::sin(x);
}

static double C[5] = {0.5, -1.5, 0.75, 2.0, -0.25};
static double hx(double x) { return horner<double>(C, 5, x); }
static double px(double x) { return poly_times_sin<4>(C, x); }
static double pc_fd(double *c, void *ctx) { return poly_times_sin<4>(c, *(double *)ctx); }

int main() {
  double x = 1.2, dc[5] = {0}, cfc[5], cfx = 0.0;
  double dx = __capsule_autodiff<double>((void *)&horner<double>, capsule_dup, C,
                                         dc, capsule_const, 5, capsule_out, x);
  for (int i = 0; i < 5; i++) {
    cfc[i] = std::pow(x, i);
    if (i)
      cfx += i * C[i] * std::pow(x, i - 1);
  }
  check_vec_cf("horner<double> dc", dc, cfc, 5);
  check_scalar("horner<double> dx", dx, hx, x, cfx);

  /* float instantiation; x is passed as a float (no variadic promotion). */
  float cf[5], dcf[5] = {0}, xf = 0.75f;
  for (int i = 0; i < 5; i++)
    cf[i] = (float)C[i];
  float dxf = __capsule_autodiff<float>((void *)&horner<float>, capsule_dup, cf,
                                        dcf, capsule_const, 5, capsule_out, xf);
  double cfxf = 0.0;
  for (int i = 0; i < 5; i++) {
    char name[48];
    snprintf(name, sizeof name, "horner<float> dc[%d]", i);
    /* float: rounding ~1e-7 per operation */
    check_close(name, dcf[i], std::pow((double)xf, i), CHECK_FLOAT_RTOL,
                CHECK_FLOAT_ATOL);
    if (i)
      cfxf += i * (double)cf[i] * std::pow((double)xf, i - 1);
  }
  check_close("horner<float> dx", dxf, cfxf, CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);

  double dc2[5] = {0};
  x = -0.6;
  double dx2 = __capsule_autodiff<double>((void *)&poly_times_sin<4>, capsule_dup,
                                          C, dc2, capsule_out, x);
  check_grad_fd("Poly<4> dc", dc2, pc_fd, &x, C, 5);
  check_close("Poly<4> dx (fd)", dx2, check_fd1(px, x), CHECK_FD_RTOL,
              CHECK_FD_ATOL);
  return check_report();
}
