// Doubles kept in unions: arrays of union cells on the stack and the heap copied whole by memcpy and by assignment, and tagged structs holding a union copied by memcpy. clang lays a union out as one of its members ({i64} for union {long; double;}); taken as the layout, the copies were integer copies and the derivatives were lost (0 at -O0 before the fix). What the union holds is told by how its members are accessed.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags -lm
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include "include/check.h"
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void __capsule_autodiff_v(void *, ...);

union Cell {
  long tag;
  double value;
};

struct Tagged {
  int kind;
  union {
    long count;
    double weight;
  } u;
};

static double cells(double *x) {
  union Cell a[3], b[3];
  for (int i = 0; i < 3; i++)
    a[i].value = x[i] * x[i];
  memcpy(b, a, sizeof a);
  union Cell c = b[1];
  union Cell *h = malloc(3 * sizeof *h);
  memcpy(h, b, sizeof b);
  double r = sin(h[0].value) + c.value * h[2].value;
  free(h);
  return r;
}

static double tagged(double *x) {
  struct Tagged t[3], u[3];
  for (int i = 0; i < 3; i++) {
    t[i].kind = i;
    t[i].u.weight = exp(x[i]);
  }
  memcpy(u, t, sizeof t);
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += u[i].kind * u[i].u.weight + x[i] * u[(i + 1) % 3].u.weight;
  return s;
}

static double cellsFd(double *x, void *unused) { return cells(x); }
static double taggedFd(double *x, void *unused) { return tagged(x); }

int main(void) {
  double x[3] = {0.3, 1.2, -0.7}, dx[3] = {0}, dt[3] = {0};
  __capsule_autodiff_v((void *)cells, capsule_dup, x, dx);
  check_grad_fd("union cells", dx, cellsFd, 0, x, 3);
  __capsule_autodiff_v((void *)tagged, capsule_dup, x, dt);
  check_grad_fd("tagged structs", dt, taggedFd, 0, x, 3);
  return check_report();
}
