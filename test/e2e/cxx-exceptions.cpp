// C++ with -fexceptions: invoke/landingpad paths that are never taken at run time (std::vector::at, a throw guarded by a false condition, try/catch, RAII cleanup).
// RUN: %clangxx -O0 -fexceptions -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -fexceptions -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// Checkpointed gradients accept the same code: the typed catch's handler is
// dropped as in the plain gradient.
// RUN: %check_checkpointed %clangxx %s %t.ck0 -O0 -fexceptions -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clangxx %s %t.ck2 -O2 -fexceptions -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <stdexcept>
#include <vector>
#include "include/check.h"

namespace {
int live_guards = 0;
struct Guard { /* has a destructor: cleanup landing pads */
  Guard() { live_guards++; }
  ~Guard() { live_guards--; }
};
} // namespace

static double weight(const std::vector<double> &v, int i) {
  if (i < 0)
    throw std::invalid_argument("negative index");
  return v.at(i) * v.at((i + 1) % v.size());
}

double f(const double *x, int n) {
  Guard g;
  std::vector<double> v;
  for (int i = 0; i < n; i++)
    v.push_back(std::cos(x[i]) + x[i]);
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    try {
      s += weight(v, i);
    } catch (const std::out_of_range &) {
      s -= 1000.0; /* never taken */
    }
  }
  return s * x[0];
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main() {
  int n = 5;
  double x[5] = {0.4, -1.2, 0.7, 1.5, -0.35}, dx[5] = {0};
  __capsule_autodiff<void>((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 5);
  check_close("guards destroyed", live_guards, 0, 0, 0);
  return check_report();
}
