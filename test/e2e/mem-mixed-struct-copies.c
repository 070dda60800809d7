// Untyped copies of arrays of structs mixing ints and doubles: an array
// grown with realloc, and elements moved with memmove (an insertion sort).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "include/check.h"

typedef struct {
  int id;
  double w;
  int rank;
} Item;

double f(const double *x, int n) {
  Item *a = NULL;
  for (int i = 0; i < n; i++) {
    a = realloc(a, (i + 1) * sizeof(Item));
    a[i].id = i;
    a[i].w = sin(x[i]) + x[i] * x[(i + 1) % n];
    a[i].rank = 0;
  }
  /* Insertion sort by w, shifting whole elements with memmove. */
  for (int i = 1; i < n; i++) {
    Item key = a[i];
    int j = i;
    while (j > 0 && a[j - 1].w > key.w)
      j--;
    memmove(&a[j + 1], &a[j], (i - j) * sizeof(Item));
    a[j] = key;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i].w * (i + 1) + 0.1 * a[i].id * a[i].w;
  free(a);
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

void __capsule_autodiff_v(void *, ...);
int main(void) {
  int n = 5;
  double x[5] = {0.9, -0.3, 1.7, 0.4, -1.2}, dx[5] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 5);
  return check_report();
}
