// C++ across files at the link, full and thin LTO: the function the marker
// names makes an object of a class of another file (ops.cpp), calls its
// virtual function there, and a template instantiated in both files. At
// -O0 and -O2, against closed forms.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for L in full thin; do for O in 0 2; do \
// RUN:   %clangxx -O$O -g -flto=$L %capsule_cflags -c %s -o %t/main.o && \
// RUN:   %clangxx -O$O -g -flto=$L %capsule_cflags -c %S/Inputs/lto-cxx/ops.cpp -o %t/ops.o && \
// RUN:   %clangxx -O2 -flto=$L %t/main.o %t/ops.o \
// RUN:     $(%capsule_config --lto-ldflags --ldflags) -o %t/prog && %t/prog || exit 1; \
// RUN: done; done
#include <capsule/capsule.h>
#include <cmath>
#include "check.h"
#include "Inputs/lto-cxx/ops.h"

static double model(double x, int k) {
  Op *op = make_op(k);
  double r = run(op, x) + poly(x);
  delete op;
  return r;
}

int main() {
  const double xs[] = {0.7, -1.5};
  for (double x : xs)
    for (int k = 0; k < 2; ++k) {
      double g = __capsule_autodiff((void *)model, x, k);
      // sin x or x^3, plus x^2 + 3x.
      double op = k == 0 ? std::cos(x) : 3 * x * x;
      check_cf("a virtual function and a template of another file", g,
               op + 2 * x + 3);
    }
  return check_report();
}
