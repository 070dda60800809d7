// Error: the C++ spellings of API Capsule does not implement yet (template
// markers reach the pass under mangled names) are named at compile time.
// RUN: not %clangxx -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

template <typename RT, typename... Args> RT __enzyme_fwdsplit(void *, Args...);
template <typename RT, typename... Args> RT __capsule_fwdsplit(void *, Args...);

double cube(double x) { return x * x * x; }

double tangents(double x) {
  // CHECK-DAG: unimplemented-api-cxx.cpp:[[@LINE+1]]:{{[0-9]+}}: error: capsule: 'double __enzyme_fwdsplit<double, double, double>(void*, double, double)' is an Enzyme API name that Capsule does not implement yet
  double a = __enzyme_fwdsplit<double>((void *)cube, x, 1.0);
  // CHECK-DAG: unimplemented-api-cxx.cpp:[[@LINE+1]]:{{[0-9]+}}: error: capsule: 'double __capsule_fwdsplit<double, double, double>(void*, double, double)' is a Capsule API name
  double b = __capsule_fwdsplit<double>((void *)cube, x, 1.0);
  return a + b + __capsule_autodiff<double>((void *)cube, x);
}
