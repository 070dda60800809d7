// Custom rules in C++ (capsule.h's macros): a function in a namespace, an
// instance of a function template, a static member function, each with a
// gradient and a tangent rule; a function with a rule called through a
// function pointer (indirect calls dispatch to its rule too); an inactive
// member function (CAPSULE_INACTIVE on its definition). Bodies are opaque
// to Capsule (inline assembly); gradient and tangents against central
// differences, and the inactive call against the closed form.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// Every gradient checkpointed (the rules run as rule code):
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "check.h"

#define OPAQUE(v) __asm__ volatile("" : "+x"(v))

struct Dual {
  double value, tangent;
};

namespace phys {
__attribute__((noinline)) double spring(double x) {
  double e = 0.5 * x * x * x * x;
  OPAQUE(e);
  return e;
}
double spring_aug(double x) { return 0.5 * x * x * x * x; }
double spring_grad(double x, double d) { return 2 * x * x * x * d; }
Dual spring_tan(double x, double dx) {
  return {0.5 * x * x * x * x, 2 * x * x * x * dx};
}

template <typename T> __attribute__((noinline)) T softplus(T x) {
  T y = std::log1p(std::exp(x));
  OPAQUE(y);
  return y;
}
template <typename T> T softplus_aug(T x) { return std::log1p(std::exp(x)); }
template <typename T> T softplus_grad(T x, T d) {
  return d / (1 + std::exp(-x));
}
template <typename T> Dual softplus_tan(T x, T dx) {
  return {std::log1p(std::exp(x)), dx / (1 + std::exp(-x))};
}

struct Kernel {
  __attribute__((noinline)) static double gauss(double x) {
    double y = std::exp(-x * x);
    OPAQUE(y);
    return y;
  }
  static double gauss_aug(double x) { return std::exp(-x * x); }
  static double gauss_grad(double x, double d) {
    return -2 * x * std::exp(-x * x) * d;
  }
  static Dual gauss_tan(double x, double dx) {
    return {std::exp(-x * x), -2 * x * std::exp(-x * x) * dx};
  }
};

struct Logger {
  int calls = 0;
  CAPSULE_INACTIVE __attribute__((noinline)) double note(double x) {
    ++calls;
    return 100 * x;
  }
};
} // namespace phys

CAPSULE_GRADIENT(phys::spring, phys::spring_aug, phys::spring_grad);
CAPSULE_DERIVATIVE(phys::spring, phys::spring_tan);
CAPSULE_GRADIENT(phys::softplus<double>, phys::softplus_aug<double>,
                 phys::softplus_grad<double>);
CAPSULE_DERIVATIVE(phys::softplus<double>, phys::softplus_tan<double>);
CAPSULE_GRADIENT(phys::Kernel::gauss, phys::Kernel::gauss_aug,
                 phys::Kernel::gauss_grad);
CAPSULE_DERIVATIVE(phys::Kernel::gauss, phys::Kernel::gauss_tan);

static phys::Logger logger;
static double (*volatile potential)(double) = phys::spring;

static double energy(double *x) {
  double e = 0;
  for (int i = 0; i < 3; ++i)
    e += potential(x[i]) + phys::softplus(x[i] * x[(i + 1) % 3]) +
         phys::Kernel::gauss(x[i]) + logger.note(x[i]) * 0;
  return e;
}

static double energy_fd(double *x, void *) { return energy(x); }

static double noted(double x) { return logger.note(x) + x; }

int main() {
  double x[3] = {0.4, -0.7, 1.1}, g[3] = {0, 0, 0};
  __capsule_autodiff((void *)energy, x, g);
  check_grad_fd("gradient through rules", g, energy_fd, nullptr, x, 3);
  for (int k = 0; k < 3; ++k) {
    double v[3] = {0, 0, 0};
    v[k] = 1;
    check_close("tangent through rules",
                __capsule_fwddiff((void *)energy, x, v), g[k], 1e-12, 1e-15);
  }
  int before = logger.calls;
  check_cf("inactive member function", __capsule_autodiff((void *)noted, 0.5),
           1.0);
  check_cf("it ran", logger.calls - before, 1);
  return check_report();
}
