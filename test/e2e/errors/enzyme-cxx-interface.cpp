// Error: misuses of Enzyme's C++ interface stop at compile time with a message naming the mistake, at the user's line: a Duplicated value in reverse mode, an Active pointer and an unwrapped argument (static assertions of the header), an Active argument in forward mode and a result activity the mode does not have (the pass, at -O0 and -O2).
// RUN: not %clangxx -std=c++17 -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not %clangxx -std=c++17 -O0 -g -DSTATIC_ERRORS %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STATIC
#include <enzyme/enzyme>

double square(double x) { return x * x; }
double *first(double *p) { return p; }

#ifdef STATIC_ERRORS
double by_value() {
  double dx = 0;
  // STATIC: error: static assertion failed{{.*}}in reverse mode, enzyme::Duplicated takes a pointer or a reference
  enzyme::autodiff<enzyme::Reverse>(square, enzyme::Duplicated<double>(2.0, dx));
  // STATIC: error: static assertion failed{{.*}}enzyme::Active takes a value; pass pointers and references as enzyme::Duplicated
  enzyme::Active<double *> a(&dx);
  // STATIC: error: static assertion failed{{.*}}each argument of enzyme::autodiff is enzyme::Active, enzyme::Duplicated, enzyme::DuplicatedNoNeed or enzyme::Const
  enzyme::autodiff<enzyme::Reverse>(square, 2.0);
  return dx;
}
#else
double misuses(double x, double *p, double *dp) {
  double s = 0;
  // CHECK-DAG: enzyme-cxx-interface.cpp:[[@LINE+2]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_out' marks argument 1 of 'square(double)', but forward mode has no out arguments
  // PASS-DAG: enzyme-cxx-interface.cpp:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_out' marks argument 1 of 'square(double)', but forward mode has no out arguments
  s += enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(square, enzyme::Active(x)));
  // CHECK-DAG: enzyme-cxx-interface.cpp:[[@LINE+2]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_active_return' marks the result active, which forward mode does not have
  // PASS-DAG: enzyme-cxx-interface.cpp:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_active_return' marks the result active, which forward mode does not have
  s += enzyme::get<0>(enzyme::autodiff<enzyme::Forward, enzyme::Active<double>>(square, enzyme::Duplicated(x, 1.0)));
  // CHECK-DAG: enzyme-cxx-interface.cpp:[[@LINE+2]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_dup_return' asks for the shadow of the result of 'first(double*)', which reverse mode does not give
  // PASS-DAG: enzyme-cxx-interface.cpp:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_dup_return' asks for the shadow of the result of 'first(double*)', which reverse mode does not give
  enzyme::autodiff<enzyme::Reverse, enzyme::Duplicated<double *>>(first, enzyme::Duplicated(p, dp));
  return s;
}
#endif
