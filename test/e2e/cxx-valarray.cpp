// std::valarray of active doubles: construction from an array, expression
// templates (arithmetic between valarrays and with scalars, std::sin and
// std::exp of a whole array), slices, generalized slices (std::gslice,
// whose indexer Capsule brings the body of: lib/LibraryBodies), masks,
// shift and cshift,
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
  // The top-left 2 x 2 block of a as 3 x 3, and its bottom row of 3 from a
  // gslice of three dimensions (one of length 1).
  std::size_t lengths[] = {2, 2}, strides[] = {3, 1};
  std::gslice block(0, std::valarray<std::size_t>(lengths, 2),
                    std::valarray<std::size_t>(strides, 2));
  std::size_t lengths3[] = {1, 3, 1}, strides3[] = {5, 1, 7};
  std::gslice row(6, std::valarray<std::size_t>(lengths3, 3),
                  std::valarray<std::size_t>(strides3, 3));
  std::valarray<double> corner = a[block], bottom = a[row];
  a[block] += corner * bottom[1];
  double s = c.sum() + (rows * diag).sum() + picked.sum() * 0.3 +
             shifted.sum() + cubes.max() + (std::exp(-a)).min() + a.sum() +
             (corner * corner).sum() + bottom[2] * bottom[0];
  a.resize(3, 0.0);
  return s + a.sum();
}

static double f_fd(double *x, void *) { return f(x); }

int main() {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.4 + 0.19 * i;
  CHECK_GRADIENT_AND_TANGENTS(f, x, N);
  // The indices Capsule's gslice indexer selects (it replaces libstdc++'s
  // in this program, the primal's too): start 1, lengths 2, 2, 2 and
  // strides 4, 2, 1 give 1, 2, 3, 4, 5, 6, 7, 8 in that order.
  std::valarray<double> a(x, N);
  std::size_t lengths[] = {2, 2, 2}, strides[] = {4, 2, 1};
  std::valarray<double> picked = a[std::gslice(
      1, std::valarray<std::size_t>(lengths, 3),
      std::valarray<std::size_t>(strides, 3))];
  const int expected[] = {1, 2, 3, 4, 5, 6, 7, 8};
  check_cf("gslice size", picked.size(), 8);
  for (int k = 0; k < 8; ++k)
    check_cf("gslice element", picked[k], x[expected[k]]);
  return check_report();
}
