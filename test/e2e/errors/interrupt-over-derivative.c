// Error: a function run by __capsule_interrupt or __capsule_primops that calls a derivative marker (forward or reverse mode) is refused at the marker call: the derivative code would run without step counts or journaling, and a resumed capsule would see the memory it wrote (at -O0 and -O2).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

static double cube(double y) { return y * y * y; }

double slopes(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    // CHECK-DAG: interrupt-over-derivative.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'slopes' interruptible: a derivative call (forward or reverse mode) inside interruptible code is not supported yet
    s += __capsule_fwddiff((void *)cube, x + i, 1.0);
  return s;
}

double gradients(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    // CHECK-DAG: interrupt-over-derivative.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'gradients' interruptible: a derivative call (forward or reverse mode) inside interruptible code is not supported yet
    s += __capsule_autodiff((void *)cube, x + i);
  return s;
}

void run(void) {
  capsule_t *c = __capsule_interrupt((void *)slopes, 10, 0.5, 20);
  capsule_release(c);
  (void)__capsule_primops((void *)gradients, 0.5, 20);
}
