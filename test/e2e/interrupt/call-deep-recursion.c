// Interruptible execution: recursion several hundred calls deep (a
// non-tail recursive walk of a 300-node singly linked list kept in a
// caller array, numbering the nodes on the way down and accumulating on
// the way back), so a capsule captures hundreds of live frames; the nodes
// and the returned value must be identical after an interruption at any
// step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct cell {
  int value;
  int depth;
  struct cell *next;
};

static long walk(struct cell *c, int depth) {
  if (!c)
    return 0;
  c->depth = depth;
  long rest = walk(c->next, depth + 1);
  return rest * 3 % 1000003 + c->value;
}

long deep(struct cell *head) { return walk(head, 0) + walk(head->next, 1); }

#define CELLS 300
static struct cell cells[CELLS];
static void reset(void) {
  for (int i = 0; i < CELLS; ++i) {
    cells[i].value = (i * 31) % 97;
    cells[i].depth = -1;
    cells[i].next = i + 1 < CELLS ? &cells[i + 1] : NULL;
  }
}
DEFINE_RUNNERS(long, deep, cells)
static const struct region regions[] = {{cells, sizeof cells}};

int main(void) {
  /* The cells (4.8 KiB), plus up to 300 live frames of a few words. */
  struct program p = {"call-deep-recursion", sizeof(long),  reset,   plain_run,
                      primops_run,           interrupt_run, regions, 1,
                      4096 + 16384};
  return check_interruptible(&p) != 0;
}
