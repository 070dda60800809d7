// Error: starting a thread inside differentiated code (its work would have
// no derivative; OpenMP regions are differentiated instead), and setjmp and
// longjmp (a jump back into a frame has no reverse). Refused whatever data
// the calls get: here the thread's argument and the jump buffer carry no
// derivatives, which the other checks would let through.
// RUN: not %clang -O0 -g -pthread %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -pthread %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>

static double *shared_x;
static double result;

static void *work(void *unused) {
  (void)unused;
  result = sin(shared_x[0]);
  return NULL;
}

static double in_a_thread(double *x) {
  pthread_t thread;
  shared_x = x;
  // CHECK-DAG: threads-setjmp.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'in_a_thread': starting a thread ('pthread_create') inside differentiated code is not supported
  pthread_create(&thread, NULL, work, NULL);
  pthread_join(thread, NULL);
  return result;
}

static jmp_buf back;

static double jumps(double *x) {
  double s = x[0] * x[0];
  // CHECK-DAG: threads-setjmp.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'jumps': setjmp and longjmp ('_setjmp') inside differentiated code are not supported
  if (setjmp(back))
    return s;
  s *= 3;
  longjmp(back, 1);
}

/* A longjmp that ends a block which never reaches the return (only the
 * forward sweep has it): reported in bail, or where it is inlined. */
// CHECK-DAG: threads-setjmp.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function '{{bail|only_jumps}}': setjmp and longjmp ('longjmp') inside differentiated code are not supported
__attribute__((noreturn)) static void bail(void) { longjmp(back, 2); }

static double only_jumps(double *x) {
  if (x[0] > 1e300)
    bail();
  return x[0];
}

void run(double *x, double *dx) {
  __capsule_autodiff((void *)in_a_thread, x, dx);
  __capsule_autodiff((void *)jumps, x, dx);
  __capsule_autodiff((void *)only_jumps, x, dx);
}
