// Copies whose element type shows only through where their pointers come
// from (found by capsule-fuzz, seeds 7, 12, 17, 18 and 28):
//  - memmove between rows of a local table of row pointers that the code
//    permutes at run time: the pointers are loaded out of the table, and
//    what was stored into it (the dup argument, a stack array, a global)
//    says they point to doubles, also when the table lives in a step
//    function's record (checkpointed);
//  - a heap block reallocated several times in a row, each realloc's result
//    used only by the next: the chain, up to where it is read, says doubles
//    (checkpointed code reallocates by copying, and decides before).
//  - memmove through a global pointer that the caller sets and the code
//    points elsewhere: the pointers stored into the global anywhere in the
//    program say doubles;
//  - a struct taken by value and returned as it came (`return q;`) in a
//    checkpointed gradient at -O0: the copy's type shows before the helper
//    becomes a step function, whose record hides it, so it is recorded then.
// Each was refused ("cannot tell whether this copy/reallocation moves
// floating-point data").
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck2 -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double g[4] = {0.5, -0.25, 0.125, 1.0};
static double *gp, *gq;

struct pair {
  double a, b;
  int k;
};
static struct pair pass(struct pair q, double s) {
  for (int j = 0; j < 4 && g[3] < 5.0; j++) // a loop: a step function
    g[3] = g[3] * 0.5 + s;
  return q;
}

double rows_and_reallocs(double *x, int n) {
  double t[4];
  for (int k = 0; k < 4; k++)
    t[k] = sin(x[k % n]) + 0.1 * k;
  double *rows[3] = {x, t, g};
  double r = 0.0;
  for (int i = 0; i < n; i++) {
    int k = (int)(2.0 + 2.0 * tanh(x[i])) % 3;
    double *swap = rows[0];
    rows[0] = rows[k];
    rows[k] = swap;
    memmove(rows[1], rows[(i + 2) % 3], 3 * sizeof(double));
    r += rows[1][i % 3] * rows[2][(i + 1) % 3];
  }
  double *h = malloc(3 * sizeof(double));
  for (int k = 0; k < 3; k++)
    h[k] = x[k] * x[(k + 1) % n];
  h = realloc(h, 5 * sizeof(double));
  h = realloc(h, (4 + n % 3) * sizeof(double));
  h = realloc(h, 6 * sizeof(double));
  r += h[0] * h[1] - h[2];
  free(h);
  memmove(gq, gp, 2 * sizeof(double));
  gp = n > 3 ? t + 1 : g;
  memmove(gp, gq, 2 * sizeof(double));
  struct pair p = {x[0] * x[1], t[0], 2};
  p = pass(p, x[2]);
  r += p.a * p.b + p.k;
  for (int k = 0; k < 4; k++)
    r += t[k] * g[k];
  return r;
}

static double f_fd(double *x, void *ctx) {
  static const double g0[4] = {0.5, -0.25, 0.125, 1.0};
  memcpy(g, g0, sizeof g);
  gp = g + 1;
  gq = g + 2;
  return rows_and_reallocs(x, *(int *)ctx);
}

int main(void) {
  int n = 5;
  double x[5] = {0.9, -0.4, 1.3, 0.2, -1.1};
  double dx[5] = {0};
  double x0[5];
  memcpy(x0, x, sizeof x);
  gp = g + 1;
  gq = g + 2;
  __capsule_autodiff_v((void *)rows_and_reallocs, capsule_dup, x, dx,
                       capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x0, 5);
  return check_report();
}
