// Interruptible execution: a user-written qsort (recursive quicksort with
// an insertion sort for short ranges, byte-wise swaps of elements of any
// size) driven by comparator function pointers, sorting an array of structs
// by two keys and an int array descending; the sorted arrays and the
// returned comparison count must be identical after an interruption at any
// step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

typedef int (*cmp_fn)(const void *, const void *);

struct item {
  int key;
  double weight;
  const char *name;
};

static long comparisons;

static void swap_bytes(void *a, void *b, size_t size) {
  unsigned char *p = (unsigned char *)a, *q = (unsigned char *)b;
  for (size_t i = 0; i < size; ++i) {
    unsigned char t = p[i];
    p[i] = q[i];
    q[i] = t;
  }
}

static void my_qsort(void *base, size_t n, size_t size, cmp_fn cmp) {
  unsigned char *b = (unsigned char *)base;
  if (n < 5) {
    for (size_t i = 1; i < n; ++i)
      for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0;
           --j)
        swap_bytes(b + (j - 1) * size, b + j * size, size);
    return;
  }
  swap_bytes(b, b + (n / 2) * size, size); /* pivot to the front */
  size_t last = 0;
  for (size_t i = 1; i < n; ++i)
    if (cmp(b + i * size, b) < 0)
      swap_bytes(b + ++last * size, b + i * size, size);
  swap_bytes(b, b + last * size, size);
  my_qsort(b, last, size, cmp);
  my_qsort(b + (last + 1) * size, n - last - 1, size, cmp);
}

static int by_key_then_weight(const void *a, const void *b) {
  const struct item *x = (const struct item *)a, *y = (const struct item *)b;
  ++comparisons;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->weight < y->weight ? -1 : x->weight > y->weight ? 1 : 0;
}

static int descending(const void *a, const void *b) {
  ++comparisons;
  return *(const int *)b - *(const int *)a;
}

long sort_all(struct item *items, int n, int *ints, int m) {
  comparisons = 0;
  my_qsort(items, (size_t)n, sizeof *items, by_key_then_weight);
  my_qsort(ints, (size_t)m, sizeof *ints, descending);
  return comparisons;
}

static const char *const names[] = {"a", "b", "c", "d"};
static struct item items[14];
static int ints[19];
static void reset(void) {
  for (int i = 0; i < 14; ++i) {
    items[i].key = (i * 5) % 6;
    items[i].weight = ((i * 7) % 13) * 0.5;
    items[i].name = names[i % 4];
  }
  for (int i = 0; i < 19; ++i)
    ints[i] = (i * 11) % 19 - 9;
  comparisons = -1;
}
DEFINE_RUNNERS(long, sort_all, items, 14, ints, 19)
static const struct region regions[] = {{items, sizeof items},
                                        {ints, sizeof ints},
                                        {&comparisons, sizeof comparisons}};

int main(void) {
  struct program p = {
      "call-sort-comparator", sizeof(long), reset, plain_run,  primops_run,
      interrupt_run,          regions,      3,     4096 + 1024};
  return check_interruptible(&p) != 0;
}
