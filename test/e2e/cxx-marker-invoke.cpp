// The marker called where a destructor is pending (a std::vector in scope):
// clang++ emits an invoke of the marker, which must lower like a call.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <vector>
#include "include/check.h"

static double f(double x, double y) { return std::sin(x) * y + x * x * y; }

int main() {
  std::vector<double> keep = {1.0, 2.0, 3.0}; // destructor pending below
  double x = 0.7, y = -1.3;
  double dx = __capsule_autodiff<double>((void *)f, capsule_out, x,
                                         capsule_const, y);
  check_close("df/dx", dx, std::cos(x) * y + 2 * x * y, 1e-12, 0);
  check_close("vector intact", keep[2], 3.0, 0, 0);
  return check_report();
}
