// Forward mode from C++: the template markers (__capsule_fwddiff<T>, __enzyme_fwddiff<T>), floats by value, std::vector by reference with a shadow vector, classes with virtual functions, new/delete, templates, lambdas, an exception thrown through the tangent call and caught around the marker or by its caller's caller.
// RUN: %clangxx -O0 -fexceptions -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -fexceptions -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>
#include <capsule/capsule.h>
#include "check.h"

extern int enzyme_dup, enzyme_const;
template <typename RT, typename... Args> RT __enzyme_fwddiff(void *, Args...);

static float fcube(float x, float y) { return x * x * x * std::sin(y); }

static double norm_sq(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}
static double norm_sq_f(double *x, void *) {
  return norm_sq(std::vector<double>(x, x + 4));
}

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double s) const = 0;
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Disc : Shape {
  double area(double r) const override { return M_PI * r * r; }
};
static double total_area(double s) {
  std::vector<std::unique_ptr<Shape>> shapes;
  shapes.push_back(std::make_unique<Square>());
  shapes.push_back(std::make_unique<Disc>());
  double a = 0;
  for (auto &sh : shapes)
    a += sh->area(s);
  return a;
}

template <typename T> T horner(const T *c, int n, T x) {
  T r = c[n - 1];
  for (int i = n - 2; i >= 0; i--)
    r = r * x + c[i];
  return r;
}
static const double C[4] = {1.0, -2.0, 0.5, 3.0};
static double poly(double x) { return horner(C, 4, x); }

static double heap_lambda(double x) {
  double *buf = new double[3];
  auto f = [](double t) { return std::exp(t) - t; };
  for (int i = 0; i < 3; i++)
    buf[i] = f(x * (i + 1));
  double s = buf[0] + buf[1] * buf[2];
  delete[] buf;
  return s;
}

static double guarded(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return std::sqrt(x) * x;
}

static double tangent_of_guarded(double x) {
  return __capsule_fwddiff<double>((void *)guarded, x, 1.0);
}

int main() {
  float fx = 0.8f, fy = 0.3f;
  float dfx = __capsule_fwddiff<float>((void *)fcube, fx, 1.0f, fy, 0.0f);
  check_close("float args d/dx", dfx, 3 * 0.8 * 0.8 * std::sin(0.3),
              CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  float dfy = __enzyme_fwddiff<float>((void *)fcube, enzyme_const, fx,
                                      enzyme_dup, fy, 1.0f);
  check_close("float args d/dy (enzyme)", dfy, 0.8 * 0.8 * 0.8 * std::cos(0.3),
              CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);

  std::vector<double> v = {0.5, -1.0, 2.0, 0.25}, dv = {1.0, 0.0, -1.0, 2.0};
  double got = __capsule_fwddiff<double>((void *)norm_sq, &v, &dv);
  double want = 0;
  for (int i = 0; i < 4; i++)
    want += dv[i] * check_fd_partial(norm_sq_f, nullptr, v.data(), 4, i);
  check_close("std::vector by reference", got, want, CHECK_FD_RTOL,
              CHECK_FD_ATOL);

  check_scalar("virtual calls",
               __capsule_fwddiff<double>((void *)total_area, 1.3, 1.0),
               total_area, 1.3, 2 * 1.3 + 2 * M_PI * 1.3);
  check_scalar("template", __capsule_fwddiff<double>((void *)poly, 0.7, 1.0),
               poly, 0.7, -2.0 + 2 * 0.5 * 0.7 + 3 * 3.0 * 0.49);
  double x = 0.4;
  check_scalar("new[] and a lambda",
               __capsule_fwddiff<double>((void *)heap_lambda, x, 1.0),
               heap_lambda, x,
               (std::exp(x) - 1) +
                   2 * (std::exp(2 * x) - 1) * (std::exp(3 * x) - 3 * x) +
                   (std::exp(2 * x) - 2 * x) * 3 * (std::exp(3 * x) - 1));
  check_scalar("may throw",
               __capsule_fwddiff<double>((void *)guarded, 2.0, 1.0), guarded,
               2.0, 1.5 * std::sqrt(2.0));
  bool thrown = false;
  try {
    tangent_of_guarded(-1.0);
  } catch (const std::domain_error &) {
    thrown = true;
  }
  check_cf("the exception reaches the caller's caller", thrown, 1);
  thrown = false;
  try {
    __capsule_fwddiff<double>((void *)guarded, -1.0, 1.0);
  } catch (const std::domain_error &) {
    thrown = true;
  }
  check_cf("the exception reaches a handler around the marker", thrown, 1);
  check_scalar("and the next call works",
               __capsule_fwddiff<double>((void *)guarded, 3.0, 1.0), guarded,
               3.0, 1.5 * std::sqrt(3.0));
  return check_report();
}
