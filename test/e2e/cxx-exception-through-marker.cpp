// An exception thrown by the differentiated code leaves a marker call that
// stands in a try block (an invoke in the caller): the program's own catch
// gets it, as it gets the primal's, and destructors run. The gradient,
// tangent or split half is abandoned and the next call starts afresh.
// Before, the lowered calls lost the invoke's unwind edge and the program
// stopped in std::terminate.
// RUN: %clangxx -O0 -fexceptions -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0 | FileCheck %s
// RUN: %clangxx -O2 -fexceptions -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2 | FileCheck %s
#include <capsule/capsule.h>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include "include/check.h"

static double term(double v) {
  if (std::fabs(v) > 100.0)
    throw std::domain_error("term too big");
  return v * v;
}

static double f(double *x) {
  double s = 0;
  for (int i = 0; i < 2; ++i)
    s += term(std::sin(x[i]) * x[i]);
  return s;
}
static double f_fd(double *x, void *) { return f(x); }

static void into(double *y, const double *x) {
  y[0] = term(x[0] * x[1]);
}

struct Guard {
  const char *what;
  ~Guard() { std::printf("released: %s\n", what); }
};

int main() {
  double bad[2] = {0.5, 300.5}, dbad[2] = {0};
  // CHECK: released: gradient
  // CHECK-NEXT: caught from the gradient: term too big
  try {
    Guard g{"gradient"};
    __capsule_autodiff<void>((void *)f, bad, dbad);
    std::puts("no exception");
  } catch (const std::domain_error &e) {
    std::printf("caught from the gradient: %s\n", e.what());
  }
  // CHECK-NEXT: caught from the tangent: term too big
  try {
    double v[2] = {1, 0};
    double t = __capsule_fwddiff<double>((void *)f, bad, v);
    std::printf("no exception %g\n", t);
  } catch (const std::domain_error &e) {
    std::printf("caught from the tangent: %s\n", e.what());
  }
  // CHECK-NEXT: caught from the forward half: term too big
  try {
    double y, dy = 1, dx[2] = {0};
    void *tape = __capsule_augmentfwd<void *>((void *)into, &y, &dy, bad, dx);
    std::printf("no exception %p\n", tape);
  } catch (const std::domain_error &e) {
    std::printf("caught from the forward half: %s\n", e.what());
  }
  // CHECK-NEXT: PASS
  double x[2] = {0.5, 1.5}, dx[2] = {0}, v[2] = {0.3, -1};
  __capsule_autodiff<void>((void *)f, x, dx);
  check_grad_fd("gradient after", dx, f_fd, nullptr, x, 2);
  check_close("tangent after", __capsule_fwddiff<double>((void *)f, x, v),
              v[0] * dx[0] + v[1] * dx[1], CHECK_CF_RTOL, CHECK_CF_ATOL);
  return check_report();
}
