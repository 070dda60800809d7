// Error: an XOR-linked list keeps prev ^ next as an integer; the next node's
// address is computed from the previous node's and an integer that holds
// another address. It is not the previous node moved by an offset (as a
// hand-aligned address is: test/e2e/mem-integer-aligned-blocks.c), so its
// shadow is unknown: refused where it meets the list's first node, whose
// shadow is known, rather than given the sink (the gradient of all but the
// first node was 0).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t0.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t2.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct Node {
  double value;
  uintptr_t link; // (uintptr_t)prev ^ (uintptr_t)next
} Node;

double f(const double *x, int n) {
  Node *nodes = malloc(n * sizeof(Node));
  for (int i = 0; i < n; i++) {
    uintptr_t prev = i > 0 ? (uintptr_t)&nodes[i - 1] : 0;
    uintptr_t next = i + 1 < n ? (uintptr_t)&nodes[i + 1] : 0;
    nodes[i].value = x[i] * x[i];
    nodes[i].link = prev ^ next;
  }
  double s = 0;
  uintptr_t prev = 0;
  for (Node *cur = nodes; cur;) {
    s += cur->value;
    // CHECK: xor-linked-list.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': pointer of unknown origin (made from an integer, or returned by a function without a body) merged with pointers that have derivatives
    Node *next = (Node *)(cur->link ^ prev);
    prev = (uintptr_t)cur;
    cur = next;
  }
  free(nodes);
  return s;
}

void use(const double *x, double *dx, int n) {
  __capsule_autodiff((void *)f, capsule_dup, x, dx, n);
}
