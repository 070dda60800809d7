// Three and four out scalars (structs of adjoints returned through sret), interleaved with a dup array and a const int, in argument order.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct { double a, b, c; } Grad3;
typedef struct { double a, b, c, d; } Grad4;
Grad3 __capsule_autodiff_3(void *, ...);
Grad4 __capsule_autodiff_4(void *, ...);

double f(double a, const double *v, int n, double b, double c) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += v[i] * sin(a * i + b) * c;
  return s + a * b * c;
}

double k(double p, double q, double r, double t) {
  return p * q * q + sin(r) * t + t * t * p / (1.0 + r * r) + q;
}

enum { N = 4 };
static double A = 0.7, B = -0.3, C = 1.6;
static double V[N] = {0.5, -1.1, 0.9, 0.2};

/* w = [a, b, c, v...] */
static double f_fd(double *w, void *ctx) {
  (void)ctx;
  return f(w[0], w + 3, N, w[1], w[2]);
}
static double k_fd(double *w, void *ctx) {
  (void)ctx;
  return k(w[0], w[1], w[2], w[3]);
}

int main(void) {
  double dv[N] = {0};
  Grad3 g = __capsule_autodiff_3((void *)f, capsule_out, A, capsule_dup, V, dv,
                                 capsule_const, N, capsule_out, B, capsule_out, C);
  double w[3 + N] = {A, B, C}, got[3 + N] = {g.a, g.b, g.c};
  memcpy(w + 3, V, sizeof V);
  memcpy(got + 3, dv, sizeof dv);
  check_grad_fd("f: d[a, b, c, v]", got, f_fd, 0, w, 3 + N);

  double kw[4] = {0.6, -1.2, 0.35, 0.9};
  Grad4 g4 = __capsule_autodiff_4((void *)k, capsule_out, kw[0], capsule_out,
                                  kw[1], capsule_out, kw[2], capsule_out, kw[3]);
  double kg[4] = {g4.a, g4.b, g4.c, g4.d};
  check_grad_fd("k: d[p, q, r, t]", kg, k_fd, 0, kw, 4);
  return check_report();
}
