// Interruptible execution: a linked list built with malloc inside the
// function (sorted insertion), reversed in place, partly unlinked and freed
// while walking, summed, and then freed node by node; the order written to
// the caller's array and the returned sum must be identical after an
// interruption at any step, and the allocator's state must be rolled back
// with the rest (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct node {
  long value;
  double weight;
  struct node *next;
};

static struct node *insert_sorted(struct node *head, long v) {
  struct node *n = (struct node *)malloc(sizeof *n);
  n->value = v;
  n->weight = v * 0.5;
  struct node **at = &head;
  while (*at && (*at)->value < v)
    at = &(*at)->next;
  n->next = *at;
  *at = n;
  return head;
}

static struct node *reverse(struct node *head) {
  struct node *prev = NULL;
  while (head) {
    struct node *next = head->next;
    head->next = prev;
    prev = head;
    head = next;
  }
  return prev;
}

static struct node *drop_multiples(struct node *head, long k) {
  struct node **at = &head;
  while (*at) {
    if ((*at)->value % k == 0) {
      struct node *dead = *at;
      *at = dead->next;
      free(dead);
    } else {
      at = &(*at)->next;
    }
  }
  return head;
}

long list(const long *in, int n, long *order) {
  struct node *head = NULL;
  for (int i = 0; i < n; ++i)
    head = insert_sorted(head, in[i]);
  head = reverse(head);
  head = drop_multiples(head, 3);
  long sum = 0;
  int i = 0;
  for (struct node *p = head; p; p = p->next) {
    order[i++] = p->value;
    sum += p->value * (long)p->weight;
  }
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return sum * 100 + i;
}

static long in[20], order[20];
static void reset(void) {
  for (int i = 0; i < 20; ++i) {
    in[i] = (i * 13) % 23 + 1;
    order[i] = 0;
  }
}
DEFINE_RUNNERS(long, list, in, 20, order)
static const struct region regions[] = {{in, sizeof in}, {order, sizeof order}};

int main(void) {
  struct program p = {
      "heap-linked-list", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,      regions,      2,     8192};
  return check_interruptible(&p) != 0;
}
