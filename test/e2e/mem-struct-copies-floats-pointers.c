// Copies of structs holding doubles beside pointers (and a float, and
// integers), and of a double beside a float: struct assignment and memcpy
// of one struct, which clang and libraries emit as one memcpy. Capsule splits such a copy by the struct's
// layout (Support/MixedCopies.h): the doubles' adjoints move back, the
// pointers' shadows forward. Reverse and forward mode, plain and
// checkpointed.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck2 -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <string.h>
#include "include/check.h"

typedef struct {
  double w;
  const double *src; // points into x
  int n;
  float f;
  double *out; // points into a local array
} Term;

enum { N = 6 };

// Not inlined: the copy's struct type is seen only through the
// parameters' uses.
__attribute__((noinline)) static void copyTerm(Term *dst, const Term *src) {
  *dst = *src;
}

double f(const double *x) {
  double acc[N] = {0};
  Term terms[N];
  for (int i = 0; i < N; i++) {
    terms[i].w = x[i] * x[(i + 1) % N];
    terms[i].src = &x[(i + 2) % N];
    terms[i].n = i;
    terms[i].f = (float)(0.5 * i);
    terms[i].out = &acc[(i * 5) % N];
  }
  Term moved[N];
  for (int i = 0; i < N; i++)
    copyTerm(&moved[N - 1 - i], &terms[i]);
  Term spare;
  memcpy(&spare, &moved[2], sizeof spare);
  spare.w *= 3;
  for (int i = 0; i < N; i++)
    *moved[i].out += sin(moved[i].w) * *moved[i].src + moved[i].f;
  double s = spare.w * *spare.src;
  for (int i = 0; i < N; i++)
    s += acc[i] * (i + 1);
  return s;
}

// A helper copying a struct of a double and a float but reading only the
// double: judged by its accesses the copy would be of doubles, and the
// float's adjoint would be garbled; by the layout it is split.
typedef struct {
  double a;
  float b;
  int c;
} Pair;

__attribute__((noinline)) static double copyAndRead(Pair *dst,
                                                    const Pair *src) {
  memcpy(dst, src, sizeof(Pair));
  return dst->a;
}

double g(const double *x) {
  Pair s = {x[0], (float)(x[1] * x[2]), 3}, t;
  double a = copyAndRead(&t, &s);
  return a * t.b;
}

static double f_fd(double *x, void *ctx) { return f(x); }

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.4 + 0.21 * i;
  CHECK_GRADIENT_AND_TANGENTS(f, x, N);
  double dg[N] = {0};
  __capsule_autodiff((void *)g, capsule_dup, x, dg);
  // g = x0 (float)(x1 x2): finite differences would see the float's
  // rounding steps; the closed form, to the float's precision.
  double want[N] = {(float)(x[1] * x[2]), x[0] * x[2], x[0] * x[1]};
  for (int i = 0; i < N; i++)
    check_close("gradient of g", dg[i], want[i], 1e-6, 1e-7);
  return check_report();
}
