// Interruptible execution: globals written and read by the function and its
// helpers (a call counter, a histogram array, a global struct, a global
// pointer retargeted between two global arrays, a read-only lookup table);
// all of them and the returned value must be identical after an
// interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

int calls;
int histogram[8];
struct {
  double total;
  int last;
  char tag[4];
} summary;
double bank_a[6], bank_b[6];
double *current = bank_a;
static const int lookup[8] = {3, 1, 4, 1, 5, 9, 2, 6};

static int bucket(int v) {
  ++calls;
  return lookup[v & 7] % 8;
}

static void record(int v) {
  int b = bucket(v);
  histogram[b] += 1;
  summary.total += v * 0.5;
  summary.last = v;
  summary.tag[calls % 4] = (char)('A' + b);
  current[calls % 6] += histogram[b];
  if (calls % 5 == 0)
    current = current == bank_a ? bank_b : bank_a;
}

long globals(int n) {
  for (int i = 0; i < n; ++i)
    record(i * 7 + calls);
  long s = 0;
  for (int i = 0; i < 8; ++i)
    s = s * 3 + histogram[i];
  return s + (long)summary.total + (current == bank_b ? 1000000 : 0);
}

static void reset(void) {
  calls = 0;
  memset(histogram, 0, sizeof histogram);
  memset(&summary, 0, sizeof summary);
  memset(bank_a, 0, sizeof bank_a);
  memset(bank_b, 0, sizeof bank_b);
  current = bank_a;
}
DEFINE_RUNNERS(long, globals, 23)
static const struct region regions[] = {
    {&calls, sizeof calls},     {histogram, sizeof histogram},
    {&summary, sizeof summary}, {bank_a, sizeof bank_a},
    {bank_b, sizeof bank_b},    {&current, sizeof current}};

int main(void) {
  struct program p = {
      "data-globals", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,  regions,      6,     4096};
  return check_interruptible(&p) != 0;
}
