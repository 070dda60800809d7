// std:: math overloads: std::sqrt/std::pow/std::exp/std::log/std::abs/std::hypot/std::fma for double, and the float overloads (sqrtf, powf, expf...).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

double fd(const double *x) {
  return std::sqrt(x[0]) * std::pow(x[1], 3) + std::pow(x[0], x[2]) +
         std::exp(x[1]) * std::log(x[0]) + std::abs(x[2]) * x[1] +
         std::hypot(x[0], x[2]) + std::fma(x[0], x[1], x[2]) * x[2];
}

float ff(const float *x) {
  return std::sqrt(x[0]) * std::pow(x[1], 2.0f) + std::pow(x[0], x[2]) +
         std::exp(x[1]) * std::log(x[0]) + std::abs(x[2]) * x[1] +
         std::tanh(x[2]);
}

static double fd_fd(double *x, void *) { return fd(x); }
/* the float formula in double: the reference */
static double ff_ref(double *x, void *) {
  return std::sqrt(x[0]) * std::pow(x[1], 2.0) + std::pow(x[0], x[2]) +
         std::exp(x[1]) * std::log(x[0]) + std::abs(x[2]) * x[1] +
         std::tanh(x[2]);
}

int main() {
  double x[3] = {1.4, -0.7, -0.9}, dx[3] = {0};
  __capsule_autodiff<void>((void *)fd, capsule_dup, x, dx);
  check_grad_fd("double dx", dx, fd_fd, nullptr, x, 3);

  float y[3] = {1.25f, 0.5f, -0.75f}, dy[3] = {0};
  double yd[3], dyd[3];
  __capsule_autodiff<void>((void *)ff, capsule_dup, y, dy);
  for (int i = 0; i < 3; i++) {
    yd[i] = y[i];
    dyd[i] = dy[i];
  }
  /* float: ~1e-7 rounding per operation, reference in double */
  check_grad_fd_tol("float dy", dyd, ff_ref, nullptr, yd, 3, CHECK_FLOAT_RTOL,
                    CHECK_FLOAT_ATOL);
  return check_report();
}
