// Split mode from C++: capsule.h's templates __capsule_augmentfwd<RT>,
// __capsule_reverse<RT> and __capsule_augmentsize reach the pass under
// mangled names; std::vector's data as the dup memory, changed between the
// halves. Against central differences.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include <capsule/capsule.h>
#include <cmath>
#include <vector>
#include "check.h"

static void model(double *y, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = std::sin(x[i]) * x[(i + 1) % n] + std::cbrt(1 + x[i] * x[i]);
}

static double weighted(double *x, void *) {
  std::vector<double> y(3);
  model(y.data(), x, 3);
  return y[0] - 2 * y[1] + 0.5 * y[2];
}

int main() {
  std::vector<double> x = {0.2, -0.7, 1.1}, dx(3, 0.0), y(3),
                      dy = {1, -2, 0.5};
  void *tape = __capsule_augmentfwd<void *>((void *)model, y.data(), dy.data(),
                                            x.data(), dx.data(), capsule_const,
                                            3);
  std::vector<double> saved = x;
  x.assign(3, 42.0); // the program's own code between the halves
  __capsule_reverse<void>((void *)model, y.data(), dy.data(), x.data(),
                          dx.data(), capsule_const, 3, tape);
  check_grad_fd("split mode from C++", dx.data(), weighted, nullptr,
                saved.data(), 3);
  int bytes = __capsule_augmentsize((void *)model, capsule_dup, capsule_dup,
                                    capsule_const);
  check_close("tape bytes", bytes, sizeof(void *), 0, 0);
  return check_report();
}
