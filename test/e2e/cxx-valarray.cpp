// std::valarray of active doubles: construction from an array, expression
// templates (arithmetic between valarrays and with scalars, std::sin and
// std::exp of a whole array), slices, masks, shift and cshift,
// apply with a function, sum, min and max, resize; reverse and forward
// mode, plain and checkpointed.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -O3 -mavx -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
// RUN: %check_checkpointed %clangxx %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clangxx %s %t.ck2 -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <valarray>

#include "include/check.h"

static const int N = 9;

static double cube(double v) { return v * v * v; }

static double f(const double *x) {
  std::valarray<double> a(x, N), b(N);
  for (int i = 0; i < N; ++i)
    b[i] = 0.5 * i - 1;
  std::valarray<double> c = a * a + std::sin(b * a) - 2.0 * a / (1.5 + b * b);
  std::valarray<double> rows = a[std::slice(0, 3, 3)]; // a column of 3x3
  std::valarray<double> diag = a[std::slice(0, 3, 4)];
  std::valarray<bool> big = a > 1.0;
  std::valarray<double> picked = a[big];
  std::valarray<double> shifted = a.shift(2) * a.cshift(-3);
  std::valarray<double> cubes = a.apply(cube);
  a[std::slice(1, 4, 2)] *= std::valarray<double>(3.0, 4);
  double s = c.sum() + (rows * diag).sum() + picked.sum() * 0.3 +
             shifted.sum() + cubes.max() + (std::exp(-a)).min() + a.sum();
  a.resize(3, 0.0);
  return s + a.sum();
}

static double f_fd(double *x, void *) { return f(x); }

int main() {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.4 + 0.19 * i;
  CHECK_GRADIENT_AND_TANGENTS(f, x, N);
  return check_report();
}
