// Error: a computed goto (a threaded interpreter's dispatch) in a function
// to differentiate. Its labels are addresses in the user's function, not in
// the generated code; the error names the function and a goto's line, at
// -O0 and -O2, in plain gradients (checkpointed ones refuse it as not
// interruptible).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=CKPT
#include <capsule/capsule.h>

double run(const double *x, const int *code, int n) {
  static void *const ops[] = {&&add, &&mul, &&done};
  double acc = 0.0;
  int pc = 0;
  // CHECK: computed-goto.c:{{(17|20|23)}}:{{[0-9]+}}: error: capsule: cannot differentiate function 'run': computed goto
  // CKPT: error: capsule: cannot make function 'run' interruptible{{.*}}: computed goto
  goto *ops[code[pc]];
add:
  acc += x[pc++ % n];
  goto *ops[code[pc]];
mul:
  acc *= x[pc++ % n];
  goto *ops[code[pc]];
done:
  return acc;
}

void grad(const double *x, double *dx, const int *code, int n) {
  __capsule_autodiff((void *)run, capsule_dup, x, dx, capsule_const, code,
                     capsule_const, n);
}
