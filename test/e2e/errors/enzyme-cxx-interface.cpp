// Error: Enzyme's C++ interface (<enzyme/enzyme>, enzyme::autodiff) is not implemented yet, and including it says so by name.
// RUN: not %clangxx -std=c++17 -O0 %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: error: "Capsule does not implement Enzyme's C++ interface (<enzyme/enzyme>, enzyme::autodiff) yet; use the C markers (__enzyme_autodiff, __enzyme_fwddiff) or capsule/capsule.hpp (capsule::gradient, jvp, hvp, jacobian, hessian)"
#include <enzyme/enzyme>

double square(double x) { return x * x; }
double dsquare(double x) {
  return enzyme::get<0>(enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(square, enzyme::Active(x))));
}
