// qsort of an array of structs of numbers reached through a pointer field
// of a parameters struct, inside a checkpointed gradient. At -O0 each
// `P->recs` reloads the field, and the elements' layout was unknown: the
// call was refused ("a call of 'qsort' ... inside a checkpointed gradient
// is not supported yet"). With -g the layout is now the declared type of
// the member the pointer is loaded from (Analysis/DeclaredTypes.h), found
// once the clone is in SSA form; without -g, at -O0, it stays unknown and
// refused (docs/limitations.md). Each step ranks the state by value and
// moves it by rank; the checkpointed gradient (short stages, every
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

enum { N = 5, STEPS = 30 };

typedef struct {
  double v;
  int idx;
} rec;

typedef struct {
  int n;
  rec *recs; /* scratch the objective sorts */
  double rate;
} problem;

static int by_value(const void *a, const void *b) {
  double x = ((const rec *)a)->v, y = ((const rec *)b)->v;
  return (x > y) - (x < y);
}

static double objective(const double *x, problem *P) {
  double s[N];
  for (int i = 0; i < P->n; i++)
    s[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < P->n; i++) {
      P->recs[i].v = sin(s[i]) + 0.05 * i * t;
      P->recs[i].idx = i;
    }
    qsort(P->recs, P->n, sizeof(rec), by_value);
    for (int r = 0; r < P->n; r++)
      s[P->recs[r].idx] += P->rate * (r + 1) * P->recs[r].v;
  }
  double sum = 0;
  for (int i = 0; i < P->n; i++)
    sum += s[i] * s[i] * (i + 1);
  return sum;
}

static rec scratch[N];
static problem prob = {N, scratch, 0.01};

static double objective_fd(double *x, void *ctx) {
  (void)ctx;
  return objective(x, &prob);
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.8, 2.1, -0.4}, dx[N] = {0};
  rec dscratch[N] = {{0}};
  problem dprob = {N, dscratch, 0};
  __capsule_autodiff((void *)objective, capsule_dup, x, dx, capsule_dup, &prob,
                     &dprob);
  check_grad_fd("dx", dx, objective_fd, 0, x, N);
  return check_report();
}
