// Error: a function run by __capsule_interrupt or __capsule_primops that computes a gradient (reverse mode, plain or checkpointed) is refused at the gradient call: its tape and shadow heap are the runtime's, which a resumed capsule would find as the first run left them (at -O0 and -O2). Forward mode inside interruptible code is accepted (test/e2e/interrupt/forward-mode.c).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=error:
#include <capsule/capsule.h>

static double cube(double y) { return y * y * y; }

double slopes(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += __capsule_fwddiff((void *)cube, x + i, 1.0);
  return s;
}

double gradients(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    // CHECK-DAG: interrupt-over-derivative.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'gradients' interruptible: a gradient call (reverse mode) inside interruptible code is not supported yet; forward mode (__capsule_fwddiff) is
    s += __capsule_autodiff((void *)cube, x + i);
  return s;
}

double checkpointed(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    // CHECK-DAG: interrupt-over-derivative.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'checkpointed' interruptible: a gradient call (reverse mode) inside interruptible code is not supported yet; forward mode (__capsule_fwddiff) is
    s += __capsule_autodiff_checkpointed((void *)cube, x + i);
  return s;
}

void run(void) {
  capsule_t *c = __capsule_interrupt((void *)slopes, 10, 0.5, 20);
  capsule_release(c);
  (void)__capsule_primops((void *)gradients, 0.5, 20);
  (void)__capsule_primops((void *)checkpointed, 0.5, 20);
}
