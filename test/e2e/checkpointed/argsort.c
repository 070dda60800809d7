// qsort of an int index array (argsort) inside a checkpointed gradient: the
// elements hold no pointers, so the sort needs no shadows moved, but a
// layout of plain integers (an array, not a struct) was taken for unknown
// and the call refused ("a call of 'qsort' ... inside a checkpointed
// gradient is not supported yet"). Each step ranks the state by value and
// weights it by rank; the checkpointed gradient (short stages, every
// strategy, via check_checkpointed) must equal the plain one, itself
// against central differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O0 -g %capsule_cflags -- %capsule_ldflags -lm
// RUN: %check_checkpointed %clang %s %t.ck2 -O2 %capsule_cflags -- %capsule_ldflags -lm
#include <math.h>
#include <stdlib.h>
#include <capsule/capsule.h>
#include "../include/check.h"

enum { N = 5, STEPS = 40 };

static const double *ranked; /* what the comparator ranks by */

static int by_value(const void *a, const void *b) {
  double x = ranked[*(const int *)a], y = ranked[*(const int *)b];
  return (x > y) - (x < y);
}

static double ranks(double *x) {
  double s[N];
  int order[N];
  for (int i = 0; i < N; i++)
    s[i] = x[i];
  double r = 0;
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < N; i++)
      order[i] = i;
    ranked = s;
    qsort(order, N, sizeof order[0], by_value);
    for (int k = 0; k < N; k++)
      s[order[k]] += 0.01 * (k + 1) * sin(s[(order[k] + 1) % N]);
    r += s[order[N - 1]] - s[order[0]];
  }
  return r;
}
CHECK_FD_OF(ranks)

int main(void) {
  double x[N] = {0.31, 0.52, 0.17, 0.94, 0.73};
  CHECK_GRADIENT_AND_TANGENTS(ranks, x, N);
  return check_report();
}
