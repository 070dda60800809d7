// capsule/capsule.hpp: gradient, jvp (scalar and vector), hvp, jacobian and hessian of lambdas with captures (one allocating a std::vector), function objects and plain functions over std::span, against closed forms and finite differences; sizes that do not match, and outputs that overlap inputs, throw std::invalid_argument. C++20, at -O0 and -O2. With -fno-exceptions (the header threw unconditionally, which did not compile) the same derivatives, and a size that does not match prints why and aborts.
// RUN: %clangxx -std=c++20 -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clangxx -std=c++20 -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clangxx -std=c++20 -O2 -fno-exceptions %capsule_cflags %s -o %tn %capsule_ldflags -lm && %tn
// RUN: not --crash %tn short 2>&1 | FileCheck %s
// CHECK: capsule: invalid argument: capsule::gradient
#include <capsule/capsule.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "check.h"

// Rosenbrock in n dimensions, its gradient and Hessian.
static double rosenbrock(std::span<const double> x) {
  double s = 0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i)
    s += 100 * (x[i + 1] - x[i] * x[i]) * (x[i + 1] - x[i] * x[i]) +
         (1 - x[i]) * (1 - x[i]);
  return s;
}
static void rosenbrock_grad(const std::vector<double> &x,
                            std::vector<double> &g) {
  std::size_t n = x.size();
  for (std::size_t i = 0; i < n; ++i)
    g[i] = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    double r = x[i + 1] - x[i] * x[i];
    g[i] += -400 * r * x[i] - 2 * (1 - x[i]);
    g[i + 1] += 200 * r;
  }
}
static void rosenbrock_hess(const std::vector<double> &x,
                            std::vector<double> &h) {
  std::size_t n = x.size();
  for (double &e : h)
    e = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    h[i * n + i] += -400 * (x[i + 1] - 3 * x[i] * x[i]) + 2;
    h[i * n + i + 1] += -400 * x[i];
    h[(i + 1) * n + i] += -400 * x[i];
    h[(i + 1) * n + i + 1] += 200;
  }
}

// A function object with a parameter: f(x) = sum_i w_i sin(x_i) x_{i+1}.
struct Weighted {
  std::vector<double> w;
  double operator()(std::span<const double> x) const {
    double s = 0;
    for (std::size_t i = 0; i + 1 < x.size(); ++i)
      s += w[i] * std::sin(x[i]) * x[i + 1];
    return s;
  }
};

static double rosenbrock_ptr(double *x, void *) {
  return rosenbrock(std::span<const double>(x, 4));
}

int main(int argc, char **) {
  std::vector<double> x = {0.3, -0.8, 1.2, 0.5}, g(4), want(4), h(16),
                      hwant(16), v = {1.0, -0.5, 0.25, 2.0}, hv(4);
  const std::size_t n = x.size();

  capsule::gradient(rosenbrock, x, g);
  rosenbrock_grad(x, want);
  check_grad_cf_fd("gradient of a function", g.data(), want.data(),
                   rosenbrock_ptr, nullptr, x.data(), 4);

  capsule::hessian(rosenbrock, x, h);
  rosenbrock_hess(x, hwant);
  check_vec_cf("hessian", h.data(), hwant.data(), 16);

  capsule::hvp(rosenbrock, x, v, hv);
  std::vector<double> hvwant(4, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      hvwant[i] += hwant[i * n + j] * v[j];
  check_vec_cf("hvp", hv.data(), hvwant.data(), 4);

  double gv = 0;
  for (std::size_t i = 0; i < n; ++i)
    gv += want[i] * v[i];
  check_cf("jvp of a scalar function", capsule::jvp(rosenbrock, x, v), gv);

  // A lambda capturing a scale by value and an offset vector by reference:
  // f(x) = scale * sum_i (x_i - c_i)^3.
  double scale = 1.5;
  std::vector<double> c = {0.1, 0.2, 0.3, 0.4};
  auto cubic = [scale, &c](std::span<const double> y) {
    double s = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
      s += (y[i] - c[i]) * (y[i] - c[i]) * (y[i] - c[i]);
    return scale * s;
  };
  capsule::gradient(cubic, x, g);
  capsule::hvp(cubic, x, v, hv);
  for (std::size_t i = 0; i < n; ++i) {
    double d = x[i] - c[i];
    want[i] = 3 * scale * d * d;
    hvwant[i] = 6 * scale * d * v[i];
  }
  check_vec_cf("gradient of a lambda with captures", g.data(), want.data(), 4);
  check_vec_cf("hvp of a lambda with captures", hv.data(), hvwant.data(), 4);

  // A lambda with a std::vector inside (heap memory in the differentiated
  // code): f(x) = sum_i (x_i x_{i+1})^2, cyclic.
  auto products = [](std::span<const double> y) {
    std::vector<double> p(y.size());
    for (std::size_t i = 0; i < y.size(); ++i)
      p[i] = y[i] * y[(i + 1) % y.size()];
    double s = 0;
    for (double e : p)
      s += e * e;
    return s;
  };
  capsule::hvp(products, x, v, hv);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t next = (i + 1) % n, prev = (i + n - 1) % n;
    // d/dx_i = 2 x_i (x_next^2 + x_prev^2)
    hvwant[i] = 2 * (x[next] * x[next] + x[prev] * x[prev]) * v[i] +
                4 * x[i] * x[next] * v[next] + 4 * x[i] * x[prev] * v[prev];
  }
  check_vec_cf("hvp of a lambda that allocates", hv.data(), hvwant.data(), 4);

  // A function object: its parameters are constants.
  Weighted wf{{0.5, -1.0, 2.0}};
  capsule::gradient(wf, x, g);
  for (std::size_t i = 0; i < n; ++i)
    want[i] = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    want[i] += wf.w[i] * std::cos(x[i]) * x[i + 1];
    want[i + 1] += wf.w[i] * std::sin(x[i]);
  }
  check_vec_cf("gradient of a function object", g.data(), want.data(), 4);

  // A vector function: y = (x0 x1, exp(x2) - x3, x0 + sin(x3)); jacobian,
  // and jvp against the jacobian times v.
  auto vf = [](std::span<const double> a, std::span<double> y) {
    y[0] = a[0] * a[1];
    y[1] = std::exp(a[2]) - a[3];
    y[2] = a[0] + std::sin(a[3]);
  };
  std::vector<double> y(3), jac(12), dy(3);
  capsule::jacobian(vf, x, y, jac);
  std::vector<double> jwant = {x[1], x[0], 0, 0,
                               0, 0, std::exp(x[2]), -1,
                               1, 0, 0, std::cos(x[3])};
  check_vec_cf("jacobian", jac.data(), jwant.data(), 12);
  check_cf("jacobian's primal", y[1], std::exp(x[2]) - x[3]);
  // Eleven inputs: one vector-mode run for the first eight columns, three
  // single runs for the rest; against finite differences.
  const std::size_t wide = 11, rows = 5;
  auto chain = [](std::span<const double> a, std::span<double> out) {
    for (std::size_t i = 0; i < out.size(); ++i) {
      double s = 0;
      for (std::size_t j = 0; j < a.size(); ++j)
        s += std::sin(a[j] * (i + 1)) * a[(j + i) % a.size()];
      out[i] = s;
    }
  };
  std::vector<double> xw(wide), yw(rows), jw(rows * wide), plus(rows),
      minus(rows);
  for (std::size_t j = 0; j < wide; ++j)
    xw[j] = 0.1 * j - 0.4;
  capsule::jacobian(chain, xw, yw, jw);
  for (std::size_t j = 0; j < wide; ++j) {
    std::vector<double> xp = xw, xm = xw;
    xp[j] += 1e-6;
    xm[j] -= 1e-6;
    chain(xp, plus);
    chain(xm, minus);
    for (std::size_t i = 0; i < rows; ++i)
      check_close("jacobian in blocks of eight", jw[i * wide + j],
                  (plus[i] - minus[i]) / 2e-6, CHECK_FD_RTOL, CHECK_FD_ATOL);
  }
  capsule::jvp(vf, x, v, y, dy);
  for (int i = 0; i < 3; ++i) {
    double want_i = 0;
    for (std::size_t j = 0; j < n; ++j)
      want_i += jwant[i * n + j] * v[j];
    check_cf("jvp of a vector function", dy[i], want_i);
  }

#if defined(__cpp_exceptions)
  // Sizes that do not match: a clear exception, nothing computed.
  int thrown = 0;
  std::vector<double> short_g(3, 7.0);
  try {
    capsule::gradient(rosenbrock, x, short_g);
  } catch (const std::invalid_argument &e) {
    thrown = short_g[0] == 7.0 &&
             std::string(e.what()).find("capsule::gradient") == 0;
  }
  check_cf("gradient with a short grad throws", thrown, 1);
  // An output overlapping an input: a clear exception, x untouched.
  thrown = 0;
  std::vector<double> x_before = x;
  try {
    capsule::gradient(rosenbrock, x, x);
  } catch (const std::invalid_argument &e) {
    thrown = x == x_before &&
             std::string(e.what()) == "capsule::gradient: grad overlaps x";
  }
  check_cf("gradient into its own input throws", thrown, 1);
  thrown = 0;
  try {
    capsule::hvp(rosenbrock, x, v, v);
  } catch (const std::invalid_argument &e) {
    thrown = std::string(e.what()) == "capsule::hvp: hv overlaps v";
  }
  check_cf("hvp into its direction throws", thrown, 1);
#else
  if (argc > 1) {
    std::vector<double> short_g(3);
    capsule::gradient(rosenbrock, x, short_g);
  }
#endif
  return check_report();
}
