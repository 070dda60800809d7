// std::complex<double> and std::complex<float>: operators (libstdc++'s * and / reach __muldc3 and __divdc3), abs, arg, norm, exp, log, sqrt, pow of every mix of complex, double and int, polar, the trigonometric functions; a discrete Fourier transform over a std::vector<std::complex<double>>; gradient, tangents and the Hessian-vector product (forward over reverse) against finite differences.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <complex>
#include <vector>
#include "include/check.h"

using Complex = std::complex<double>;
constexpr int N = 4;

static double f(const double *x) {
  Complex z(x[0], x[1]), w(x[2], x[3]);
  Complex a = z * w, b = z / w;
  Complex e = std::exp(z) + std::log(w) + std::sqrt(a) + std::pow(z, w) +
              std::pow(w, 2.5) + std::pow(z, 3) + std::pow(1.5, z);
  Complex t = std::sin(z) * std::cos(w) + std::tanh(z) +
              std::polar(x[0] + 1, x[3]);
  Complex u = std::asin(z) + std::atan(w) + std::conj(b) * 2.0 + 1.0 / z;
  return std::abs(a + b) + std::arg(e) + std::norm(t) + (u * e).real() +
         std::imag(t / u);
}
static double f_fd(double *x, void *) { return f(x); }

/* The power spectrum of a signal whose samples are the inputs, by a plain
 * DFT over a vector of complex values. */
static double spectrum(const double *x, int n) {
  std::vector<Complex> X(n);
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      X[k] += x[j] * std::polar(1.0, -2 * M_PI * j * k / n);
  double s = 0;
  for (int k = 0; k < n; k++)
    s += std::norm(X[k]) * (k + 1) + std::abs(X[k]);
  return s;
}
static double spectrum_fd(double *x, void *) { return spectrum(x, 8); }

static float f_float(const float *x) {
  std::complex<float> z(x[0], x[1]), w(x[2], x[3]);
  std::complex<float> e = std::exp(z) * w / (z + 1.0f) + std::sqrt(w);
  return std::abs(e) + std::arg(z * w) + e.real() * e.imag();
}
static double f_float_ref(double *x, void *) {
  Complex z(x[0], x[1]), w(x[2], x[3]);
  Complex e = std::exp(z) * w / (z + 1.0) + std::sqrt(w);
  return std::abs(e) + std::arg(z * w) + e.real() * e.imag();
}

static void grad_f(const double *x, double *g) {
  for (int i = 0; i < N; i++)
    g[i] = 0;
  __capsule_autodiff((void *)f, capsule_dup, x, g);
}
static void grad_f_fd(double *x, double *g, void *) { grad_f(x, g); }

int main() {
  double x[N] = {0.3, -0.7, 1.1, 0.4}, dx[N] = {0};
  __capsule_autodiff((void *)f, capsule_dup, x, dx);
  check_grad_fd("gradient", dx, f_fd, nullptr, x, N);
  for (int i = 0; i < N; i++) {
    double t[N] = {0};
    t[i] = 1;
    check_close("tangent", __capsule_fwddiff((void *)f, capsule_dup, x, t),
                check_fd_partial(f_fd, nullptr, x, N, i), CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  }
  double v[N] = {0.5, -1.0, 0.25, 0.75}, g[N], hv[N];
  __capsule_fwddiff((void *)grad_f, capsule_dup, x, v, capsule_dup, g, hv);
  check_jvp_fd("Hessian-vector product", hv, grad_f_fd, nullptr, x, v, N, N);

  double s[8] = {0.5, 1.0, -0.25, 0.75, 0.1, -0.6, 0.9, 0.3}, ds[8] = {0};
  __capsule_autodiff((void *)spectrum, capsule_dup, s, ds, capsule_const, 8);
  check_grad_fd("DFT", ds, spectrum_fd, nullptr, s, 8);

  float xf[N] = {0.3f, -0.7f, 1.1f, 0.4f}, dxf[N] = {0};
  double xd[N], dxd[N];
  __capsule_autodiff((void *)f_float, capsule_dup, xf, dxf);
  for (int i = 0; i < N; i++) {
    xd[i] = xf[i];
    dxd[i] = dxf[i];
  }
  // float: ~1e-7 rounding per operation, reference in double.
  check_grad_fd_tol("complex<float>", dxd, f_float_ref, nullptr, xd, N,
                    CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  return check_report();
}
