// C++ library code that copies objects as raw bytes: moving a unique_ptr
// (an 8-byte memcpy at -O0), std::sort of doubles (memmoves and integer
// element copies at -O2) and with std::greater (a 1-byte copy of the empty
// comparator at -O0).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <algorithm>
#include <capsule/capsule.h>
#include <cmath>
#include <functional>
#include <memory>
#include "include/check.h"

struct Scale {
  virtual ~Scale() = default;
  virtual double k() const { return 3.0; }
};

static double f(const double *x) {
  std::unique_ptr<Scale> a = std::make_unique<Scale>();
  std::unique_ptr<Scale> b = std::move(a);
  double v[4] = {x[0] * x[1], std::sin(x[2]), x[3], x[0] + x[3]};
  std::sort(v, v + 4);
  double w[4] = {v[0], v[1], v[2], v[3]};
  std::sort(w, w + 4, std::greater<double>());
  return b->k() * (v[0] * 1.0 + v[1] * 2.0 + v[2] * 3.0 + v[3] * 4.0) +
         w[0] * w[3];
}

static double f_fd(double *x, void *) { return f(x); }

int main() {
  double x[4] = {0.9, -0.4, 1.3, 0.2}, dx[4] = {0};
  __capsule_autodiff<void>((void *)f, capsule_dup, x, dx);
  check_grad_fd("dx", dx, f_fd, nullptr, x, 4);
  return check_report();
}
