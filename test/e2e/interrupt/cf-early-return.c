// Interruptible execution: functions with several early returns (a binary
// search returning from inside its loop, a validator with guard clauses, a
// lookup that returns from a nested loop) called from a loop; the found
// positions and the returned score must be identical after an interruption
// at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

__attribute__((noinline)) static int bsearch_int(const int *a, int n, int key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] == key)
      return mid;
    if (a[mid] < key)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -(lo + 1);
}

static int validate(int key) {
  if (key < 0)
    return -1;
  if (key == 0)
    return 0;
  if (key > 100)
    return 2;
  if (key % 2)
    return 3;
  return 1;
}

static int find2(const int *a, int n, int target) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (a[i] + a[j] == target)
        return i * n + j;
  return -1;
}

int early(const int *sorted, int n, const int *keys, int m, int *pos) {
  int score = 0;
  for (int i = 0; i < m; ++i) {
    int v = validate(keys[i]);
    if (v <= 0) {
      pos[i] = v - 10;
      continue;
    }
    pos[i] = bsearch_int(sorted, n, keys[i]);
    score += pos[i] * v;
    if (score > 1000)
      return -score;
  }
  return score * 100 + find2(sorted, n, 40);
}

static int sorted[16], keys[12], pos[12];
static void reset(void) {
  for (int i = 0; i < 16; ++i)
    sorted[i] = i * i / 2 + i;
  static const int k[12] = {0, 5, 9, 200, -3, 14, 60, 61, 1, 44, 127, 27};
  for (int i = 0; i < 12; ++i) {
    keys[i] = k[i];
    pos[i] = 0;
  }
}
DEFINE_RUNNERS(int, early, sorted, 16, keys, 12, pos)
static const struct region regions[] = {
    {sorted, sizeof sorted}, {keys, sizeof keys}, {pos, sizeof pos}};

int main(void) {
  struct program p = {"cf-early-return", sizeof(int), reset,
                      plain_run,         primops_run, interrupt_run,
                      regions,           3,           4096};
  return check_interruptible(&p) != 0;
}
