// memcpy between rows of `double **` fields and between arrays that struct
// members point to, written as expressions (`memcpy(out[j], in[j], ...)`,
// `memcpy(g->next, g->cur, ...)`) rather than through named pointers. The
// copies type their bytes by the declared type of what the pointers are
// loaded from (with -g): an element of `double **`, a member of a struct.
// They were refused ("cannot tell whether this copy moves floating-point
// data") where the same copy through a named `double *` worked. Gradient
// and tangents against finite differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O1 -g %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <math.h>
#include <string.h>
#include "include/check.h"

enum { NY = 3, NX = 4, STEPS = 6 };

typedef struct {
  double **cur, **next; /* rows */
  double *flat_a, *flat_b;
  int ny, nx;
} grid;

/* Functions of their own that only copy: nothing else in them types the
 * bytes. */
__attribute__((noinline)) static void copy_rows(double **dst, double **src,
                                                int ny, int nx) {
  for (int j = 0; j < ny; j++)
    memcpy(dst[j], src[j], nx * sizeof(double));
}

__attribute__((noinline)) static void flatten(grid *g) {
  for (int j = 0; j < g->ny; j++)
    memcpy(g->flat_a + j * g->nx, g->cur[j], g->nx * sizeof(double));
  memcpy(g->flat_b, g->flat_a, g->ny * g->nx * sizeof(double));
}

/* One smoothing step into next, then next copied back row by row. */
static void step(grid *g) {
  for (int j = 0; j < g->ny; j++)
    for (int i = 0; i < g->nx; i++) {
      double l = g->cur[j][(i + g->nx - 1) % g->nx];
      double r = g->cur[j][(i + 1) % g->nx];
      g->next[j][i] = 0.5 * g->cur[j][i] + 0.25 * (l + r) +
                      0.1 * sin(g->cur[(j + 1) % g->ny][i]);
    }
  for (int j = 0; j < g->ny; j++)
    memcpy(g->cur[j], g->next[j], g->nx * sizeof(double));
  copy_rows(g->next, g->cur, g->ny, g->nx);
}

static double run(const double *x) {
  double c[NY][NX], n[NY][NX], fa[NY * NX], fb[NY * NX];
  double *cur[NY], *next[NY];
  for (int j = 0; j < NY; j++) {
    cur[j] = c[j];
    next[j] = n[j];
    for (int i = 0; i < NX; i++)
      c[j][i] = x[j * NX + i];
  }
  grid g = {cur, next, fa, fb, NY, NX};
  for (int t = 0; t < STEPS; t++)
    step(&g);
  flatten(&g);
  double s = 0;
  for (int k = 0; k < NY * NX; k++)
    s += g.flat_b[k] * g.flat_b[k] * (1 + k % 3);
  return s;
}

CHECK_FD_OF(run)

int main(void) {
  double x[NY * NX];
  for (int k = 0; k < NY * NX; k++)
    x[k] = 0.3 * sin(1.7 * k) + 0.1 * k;
  CHECK_GRADIENT_AND_TANGENTS(run, x, NY * NX);
  return check_report();
}
