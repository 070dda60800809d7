// Interruptible execution of code with function-local statics: one built
// by a loop, one holding a heap block (std::vector). The first interruptible
// run initializes them, inside the run; it must count the same steps as the
// runs after it, which find them initialized (the initialization runs as
// the program's code, charged nothing), and runs interrupted at many points
// and resumed, each capsule twice, must end with the plain call's result
// bit for bit.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include <capsule/capsule.h>
#include <cmath>
#include <cstdio>
#include <vector>
#include "check.h"

static double weight(int k) {
  static const double Table[8] = {
      [] {
        double s = 0;
        for (int i = 1; i <= 40; ++i)
          s += 1.0 / (i * i);
        return s;
      }(),
      0.5, 0.25, 0.125, 1.5, -0.5, 2.0, 0.75};
  return Table[k % 8];
}

static double offset(int k) {
  static const std::vector<double> Offsets = [] {
    std::vector<double> v;
    for (int i = 0; i < 16; ++i)
      v.push_back(std::sin(0.3 * i));
    return v;
  }();
  return Offsets[k % Offsets.size()];
}

double model(const double *x, int n) {
  double s = 0;
  for (int t = 0; t < 30; ++t)
    for (int i = 0; i < n; ++i)
      s += weight(i + t) * std::cos(x[i] * s * 1e-3) + offset(t * n + i);
  return s;
}

int main() {
  const int N = 5;
  double x[N] = {0.3, -0.5, 0.8, 0.1, 1.2};
  uint64_t first = __capsule_primops((void *)model, x, N);
  uint64_t second = __capsule_primops((void *)model, x, N);
  check_cf("the run that initializes the statics counts the same steps",
           first == second, 1);
  CHECK_RESUMED_RUNS(model, model(x, N), first, 23, 20, x, N);
  return check_report();
}
