// Error: the marker's first argument is a null pointer, not a function.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

void __capsule_autodiff_v(void *, ...);

void use(double *x, double *dx) {
  // CHECK: {{.*}}first-arg-null.c:[[@LINE+1]]{{.*}}error:{{.*}}capsule:{{.*}}first argument
  __capsule_autodiff_v((void *)0, capsule_dup, x, dx);
}
