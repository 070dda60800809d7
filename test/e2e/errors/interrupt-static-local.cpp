// Error: a function-local static initialized inside checkpointed
// (interruptible) code would be initialized once and then skipped, or
// initialized and registered for destruction twice, when a capsule is
// re-executed: refused at compile time, naming the function and the line.
// The same code differentiates without checkpointing
// (cxx-library-beside-active-data.cpp).
// RUN: not %clangxx -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <string>

static double scaled(double x) {
  // CHECK: interrupt-static-local.cpp:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function '{{.*}}' interruptible{{.*}}: a function-local static initialized inside interruptible code is not supported; initialize it before (call the function once outside)
  static const double scale = 1.0 + std::to_string(x).size();
  return scale * x;
}

static double f(const double *x) { return scaled(x[0]) * x[1]; }

void gradient(const double *x, double *dx) {
  __capsule_autodiff_checkpointed((void *)f, capsule_dup, x, dx);
}
