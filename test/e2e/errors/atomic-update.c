// Error: an atomic update of a double that has an adjoint is differentiated
// only as an accumulation whose old value goes unused (`#pragma omp atomic`,
// test/e2e/omp-parallel.c); here the program uses the value the update
// returns. Integer updates (a reference count beside the data) are
// accepted, but not an integer exchange, which moves a double's bits, nor
// a compare-exchange storing them.
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

static _Atomic double total;

double f(double x) {
  // CHECK-DAG: atomic-update.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': atomic update of memory that has adjoints
  return total += x * x;
}

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }

void swap_bits(double *p, double *q) {
  long bits = __atomic_load_n((long *)q, __ATOMIC_RELAXED);
  // CHECK-DAG: atomic-update.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'swap_bits': atomic update of memory that has adjoints
  long old = __atomic_exchange_n((long *)p, bits, __ATOMIC_SEQ_CST);
  // CHECK-DAG: atomic-update.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'swap_bits': atomic update of memory that has adjoints
  __atomic_compare_exchange_n((long *)q, &bits, old, 0, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
}

void use_bits(double *p, double *dp, double *q, double *dq) {
  __capsule_autodiff((void *)swap_bits, capsule_dup, p, dp, capsule_dup, q,
                     dq);
}
