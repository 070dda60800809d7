// Error: C++ code that catches exceptions cannot be made interruptible (an
// exception cannot unwind through step functions); the catching function is
// named. (Destructors' terminate handlers are not catching and are fine.)
// RUN: not %clangxx -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdexcept>

__attribute__((noinline)) static double checked(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return x * 2;
}

// CHECK: interrupt-catch.cpp:{{[0-9]+}}:{{[0-9]+}}: error: capsule: cannot make function 'total(double const*, int)' interruptible: catching C++ exceptions is not supported in interruptible code
double total(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    try {
      s += checked(x[i]);
    } catch (const std::domain_error &) {
      s -= 1;
    }
  }
  return s;
}

uint64_t steps(const double *x, int n) {
  return __capsule_primops((void *)total, x, n);
}
