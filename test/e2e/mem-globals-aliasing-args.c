// Globals the differentiated code reaches by name that alias its dup arguments: a global array passed as dup and also read and written by name; a global pointer the caller set to the argument; a global pointer initialized to point at another global. Each path reaches the same shadow. A dup argument pointing into the middle of such a global stops with a message.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: not %t2 inside 2>&1 | FileCheck %s
// CHECK: capsule: dup argument 1 of the gradient points 8 bytes into the global 'G', which the differentiated code also uses by name
#include <math.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

enum { N = 3 };
double G[N] = {0.5, 1.5, -0.7};
double W[N] = {0.25, -2.0, 1.0}; /* constant data, but mutable */
double *gp;                      /* set by the caller */
double *wp = W;                  /* points at another global */

/* a aliases G: reads through both, writes G[0] by name, then reads it
   through the argument. */
double through_both(double *a) {
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += a[i] * G[i] + sin(G[i]) * a[(i + 1) % N];
  G[0] = s * a[2];
  return a[0] * a[0] + s;
}

/* x reached only through gp, and W through wp. */
double through_pointer(double *x) {
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += gp[i] * gp[i] * x[i] * wp[i];
  return s;
}

static double fd_both(double *x, void *ctx) {
  (void)ctx;
  double saved[N];
  memcpy(saved, G, sizeof G);
  memcpy(G, x, sizeof G);
  double r = through_both(G);
  memcpy(G, saved, sizeof G);
  return r;
}

static double fd_pointer(double *x, void *ctx) {
  (void)ctx;
  double *saved = gp;
  gp = x;
  double r = through_pointer(x);
  gp = saved;
  return r;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "inside") == 0) {
    double d[N - 1] = {0};
    __capsule_autodiff_v((void *)through_both, capsule_dup, &G[1], d);
    return 0;
  }
  double g0[N], dG[N] = {0};
  memcpy(g0, G, sizeof G);
  __capsule_autodiff_v((void *)through_both, capsule_dup, G, dG);
  check_grad_fd("global passed as dup and used by name", dG, fd_both, 0, g0,
                N);

  double x[N] = {0.7, -1.3, 0.4}, dx[N] = {0};
  gp = x;
  __capsule_autodiff_v((void *)through_pointer, capsule_dup, x, dx);
  check_grad_fd("argument reached through a global pointer", dx, fd_pointer,
                0, x, N);
  for (int i = 0; i < N; i++)
    check_cf("closed form", dx[i], 3 * x[i] * x[i] * W[i]);
  return check_report();
}
