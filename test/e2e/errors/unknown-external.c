// Error: f calls an external function without a body that receives an active double; the pass cannot differentiate it.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

double mystery(double);

double f(double x) { return mystery(x * x) + x; }

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }

// CHECK: {{.*}}unknown-external.c{{.*}}error:{{.*}}capsule:{{.*}}mystery
