// Error: an address kept as an integer in memory (a bump allocator's next
// free address, a uintptr_t) and turned back into a pointer in another
// function has no shadow: which block it is in is not visible where it is
// made (test/e2e/mem-integer-aligned-blocks.c has the addresses computed
// on integers that work: from one pointer, within one function).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t0.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t2.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  uintptr_t next;
} Arena;

__attribute__((noinline)) static double *take(Arena *a, int n) {
  uintptr_t at = (a->next + 31) & ~(uintptr_t)31;
  a->next = at + (uintptr_t)n * sizeof(double);
  // CHECK: integer-address-from-memory.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'take': pointer of unknown origin (made from an integer, or returned by a function without a body) passed to or returned from a differentiated function
  return (double *)at;
}

double f(const double *x, int n) {
  char *pool = malloc(1024);
  Arena arena = {(uintptr_t)pool};
  double *u = take(&arena, n);
  double s = 0;
  for (int i = 0; i < n; i++) {
    u[i] = x[i] * x[i];
    s += u[i];
  }
  free(pool);
  return s;
}

void use(const double *x, double *dx, int n) {
  __capsule_autodiff((void *)f, capsule_dup, x, dx, n);
}
