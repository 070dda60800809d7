// C++ lambdas (capturing an active scalar by value and an active local by reference) passed to a map_reduce function template.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

template <class Map, class Reduce>
double map_reduce(const double *x, int n, Map m, Reduce r, double init) {
  double acc = init;
  for (int i = 0; i < n; i++)
    acc = r(acc, m(x[i], i));
  return acc;
}

double f(const double *x, int n, double scale) {
  auto sq = [scale](double v, int i) { return scale * v * v + i * 0.1 * v; };
  double offset = x[0];
  auto shifted = [&offset](double v, int) { return std::exp(0.3 * (v - offset)); };
  auto add = [](double a, double b) { return a + b; };
  auto mul = [](double a, double b) { return a * (1.0 + 0.1 * b); };
  double s = map_reduce(x, n, sq, add, 0.0);
  offset *= scale; /* the reference capture sees the update */
  return s + map_reduce(x, n, shifted, mul, 1.0);
}

enum { N = 5 };
static double S = 0.8;
static double X[N] = {0.6, -1.1, 0.4, 1.5, -0.3};
static double x_fd(double *x, void *) { return f(x, N, S); }
static double s_fd(double s) { return f(X, N, s); }

int main() {
  double dx[N] = {0};
  double ds = __capsule_autodiff<double>((void *)f, capsule_dup, X, dx,
                                         capsule_const, (int)N, capsule_out, S);
  check_grad_fd("dx", dx, x_fd, nullptr, X, N);
  check_close("dscale (fd)", ds, check_fd1(s_fd, S), CHECK_FD_RTOL, CHECK_FD_ATOL);
  return check_report();
}
