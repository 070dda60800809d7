// Error: a function that returns a struct in memory (through a hidden
// pointer: larger than 16 bytes on x86-64) given to a marker. The marker
// took the hidden pointer for the function's first argument and said so
// misleadingly ("'accum' takes 3 arguments but the call passes 2";
// "argument 2 of 'scale' has type ptr but the call passes i32"; "the shadow
// of argument 1 of 'sph' must be a pointer"). A gradient says the aggregate
// cannot be seeded, as for one returned in registers; forward mode and the
// interruptible markers say they do not support such results.
// RUN: not %clang -O2 -g -DCASE=1 %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=INTERRUPT
// RUN: not %clang -O0 -g -DCASE=2 %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=REVERSE
// RUN: not %clang -O2 -g -DCASE=3 %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FORWARD
#include <capsule/capsule.h>

typedef struct {
  double x, y, z;
  int n;
} Big;

Big accum(Big b, int n) {
  for (int i = 0; i < n; i++) {
    b.x += b.y;
    b.n++;
  }
  return b;
}

Big scale(const double *p, int n) {
  Big b = {p[0] * n, p[1], p[2], n};
  return b;
}

#if CASE == 1
void run(Big b0) {
  // INTERRUPT: struct-in-memory-results.c:[[@LINE+1]]{{.*}}error: capsule: malformed call: 'accum' returns a struct in memory (through a hidden pointer, as C returns structs larger than 16 bytes), which __capsule_primops does not support yet
  uint64_t n = __capsule_primops((void *)accum, b0, 500);
  // INTERRUPT: struct-in-memory-results.c:[[@LINE+1]]{{.*}}error: capsule: malformed call: 'accum' returns a struct in memory {{.*}} which __capsule_interrupt does not support yet
  capsule_t *c = __capsule_interrupt((void *)accum, n / 2, b0, 500);
  capsule_release(c);
}
#elif CASE == 2
void gradient(const double *p, double *dp) {
  // REVERSE: struct-in-memory-results.c:[[@LINE+1]]{{.*}}error: capsule: malformed call: 'scale' returns an aggregate of floating-point values (in memory, through a hidden pointer), which cannot be seeded
  __capsule_autodiff((void *)scale, capsule_dup, p, dp, capsule_const, 2);
}
#else
Big __capsule_fwddiff_big(void *, ...);
Big tangent(const double *p, const double *dp) {
  // FORWARD: struct-in-memory-results.c:[[@LINE+1]]{{.*}}error: capsule: malformed call: 'scale' returns a struct in memory {{.*}} which forward mode does not support yet
  return __capsule_fwddiff_big((void *)scale, capsule_dup, p, dp, capsule_const, 2);
}
#endif
