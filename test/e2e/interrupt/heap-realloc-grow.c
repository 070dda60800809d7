// Interruptible execution: a buffer grown with realloc (a dynamic array
// starting from NULL and doubling its capacity while Collatz trajectories
// are appended, then shrunk to fit), its contents copied to the caller and
// freed; the caller's array and the returned length must be identical after
// an interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct dynarray {
  long *data;
  int len, cap;
  int grows;
};

static void push(struct dynarray *a, long v) {
  if (a->len == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 1;
    a->data = (long *)realloc(a->data, (size_t)a->cap * sizeof(long));
    a->grows += 1;
  }
  a->data[a->len++] = v;
}

int grow(const long *starts, int n, long *out, int out_len, int *grows) {
  struct dynarray a = {NULL, 0, 0, 0};
  for (int i = 0; i < n; ++i) {
    long x = starts[i];
    while (x != 1) {
      push(&a, x);
      x = (x & 1) ? 3 * x + 1 : x / 2;
    }
  }
  a.data = (long *)realloc(a.data, (size_t)a.len * sizeof(long));
  int len = a.len;
  for (int i = 0; i < out_len; ++i)
    out[i] = i < len ? a.data[len - 1 - i] : -1;
  *grows = a.grows;
  free(a.data);
  return len;
}

static long starts[4], out[160];
static int grows;
static void reset(void) {
  static const long v[4] = {27, 9, 97, 6};
  memcpy(starts, v, sizeof starts);
  memset(out, 0, sizeof out);
  grows = 0;
}
DEFINE_RUNNERS(int, grow, starts, 4, out, 160, &grows)
static const struct region regions[] = {
    {starts, sizeof starts}, {out, sizeof out}, {&grows, sizeof grows}};

int main(void) {
  /* The buffer ends at 256 longs (2 KiB) plus the smaller copies before. */
  struct program p = {"heap-realloc-grow", sizeof(int),   reset,   plain_run,
                      primops_run,         interrupt_run, regions, 3,
                      4096 + 8192};
  return check_interruptible(&p) != 0;
}
