// A dup argument's heap block, with a shadow the program allocated, freed
// inside the differentiated function and replaced by a new block: the
// reverse sweep marked the freed primal's shadow as freed in the 8 bytes
// before it, as if it were a block of the runtime's shadow heap, which
// overwrote glibc's record of the program's block (the program's later
// free of its shadow aborted; in a training loop, heap corruption). A
// shadow the program allocated is now left alone, and the new block's shadow
// is a plain heap block the program frees like the block it shadows (the
// runtime's blocks carried a header: free() aborted). A block allocated
// inside the function and kept (`grow`) likewise. Reallocating a block
// whose shadow the program allocated stops with a message: the old
// shadow's size is not known.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: not %t2 realloc 2>&1 | FileCheck %s
// CHECK: capsule: the differentiated function reallocates a heap block whose shadow the program allocated
#include <stdlib.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct {
  double *data;
  int n;
  double k;
} Series;

/* Replaces s->data by a longer series scaled by k: sum of squares. */
static double regrow(Series *s, int n) {
  double first = s->data[0];
  free(s->data);
  s->data = malloc(sizeof(double) * (size_t)n);
  s->n = n;
  double l = 0;
  for (int i = 0; i < n; i++) {
    s->data[i] = s->k * i + first;
    l += s->data[i] * s->data[i];
  }
  return l;
}

static double stretch(Series *s, int n) {
  s->data = realloc(s->data, sizeof(double) * (size_t)n);
  for (int i = s->n; i < n; i++)
    s->data[i] = s->k * i;
  s->n = n;
  double l = 0;
  for (int i = 0; i < n; i++)
    l += s->data[i] * s->data[i];
  return l;
}

/* Allocates s->data inside the function and keeps it. */
static double grow(Series *s, int n) {
  s->data = malloc(sizeof(double) * (size_t)n);
  s->n = n;
  double l = 0;
  for (int i = 0; i < n; i++) {
    s->data[i] = s->k * i;
    l += s->data[i] * s->data[i];
  }
  return l;
}

int main(int argc, char **argv) {
  Series s = {malloc(2 * sizeof(double)), 2, 1.5};
  Series ds = {calloc(2, sizeof(double)), 2, 0};
  s.data[0] = 0.5;
  s.data[1] = 0.25;
  double *program_shadow = ds.data;
  if (argc > 1 && !strcmp(argv[1], "realloc")) {
    __capsule_autodiff((void *)stretch, capsule_dup, &s, &ds, capsule_const,
                       4);
    return 0;
  }
  __capsule_autodiff((void *)regrow, capsule_dup, &s, &ds, capsule_const, 4);
  /* l = sum_i (k i + d0)^2: dl/dk = sum 2 i (k i + d0), dl/dd0 = sum 2 (k i
   * + d0). */
  double dk = 0, dd0 = 0;
  for (int i = 0; i < 4; i++) {
    dk += 2 * i * (1.5 * i + 0.5);
    dd0 += 2 * (1.5 * i + 0.5);
  }
  check_close("dk", ds.k, dk, CHECK_CF_RTOL, CHECK_CF_ATOL);
  check_close("d data[0]", program_shadow[0], dd0, CHECK_CF_RTOL,
              CHECK_CF_ATOL);
  free(program_shadow); /* glibc aborted here when its header was written */
  free(s.data);
  free(ds.data); /* the runtime's block, handed to the program */

  /* Kept blocks, call after call, their shadows freed by the program. */
  for (int call = 0; call < 3; call++) {
    Series g = {NULL, 0, 0.5 + call}, dg = {NULL, 0, 0};
    __capsule_autodiff((void *)grow, capsule_dup, &g, &dg, capsule_const, 5);
    double want = 0;
    for (int i = 0; i < 5; i++)
      want += 2 * i * i * g.k;
    check_close("dk of a kept block", dg.k, want, CHECK_CF_RTOL,
                CHECK_CF_ATOL);
    free(g.data);
    free(dg.data);
  }
  return check_report();
}
