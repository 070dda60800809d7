// Error: the marker's first argument is a data pointer (a global array), not a function.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

double table[4] = {1, 2, 3, 4};

double use(double x) {
  // CHECK: {{.*}}first-arg-data.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}first argument
  return __capsule_autodiff((void *)table, capsule_out, x);
}
