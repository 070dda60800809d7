// Interruptible execution: the function handed to the markers is itself
// recursive (a recursive merge sort of a caller array with a stack buffer
// per level, returning the inversion count), so interruptions land at
// every depth of the root's own recursion (interrupt_check.h lists the
// checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

#define MAXN 64

long msort(int *a, int n) {
  if (n < 2)
    return 0;
  int h = n / 2;
  long inv = msort(a, h) + msort(a + h, n - h);
  int tmp[MAXN];
  int i = 0, j = h, k = 0;
  while (i < h && j < n) {
    if (a[i] <= a[j]) {
      tmp[k++] = a[i++];
    } else {
      inv += h - i;
      tmp[k++] = a[j++];
    }
  }
  while (i < h)
    tmp[k++] = a[i++];
  while (j < n)
    tmp[k++] = a[j++];
  for (k = 0; k < n; ++k)
    a[k] = tmp[k];
  return inv;
}

static int a[40];
static void reset(void) {
  for (int i = 0; i < 40; ++i)
    a[i] = (i * 29 + 7) % 41;
}
DEFINE_RUNNERS(long, msort, a, 40)
static const struct region regions[] = {{a, sizeof a}};

int main(void) {
  /* Each level's frame holds a 256-byte buffer; the recursion is 6 deep. */
  struct program p = {
      "call-root-recursive", sizeof(long), reset, plain_run,  primops_run,
      interrupt_run,         regions,      1,     4096 + 2048};
  return check_interruptible(&p) != 0;
}
