// Mixed activities in one call: two out scalars (struct of 2) around a dup array, a const int and a const double; adjoints in argument order.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct { double a, b; } Grad2;
Grad2 __capsule_autodiff_2(void *, ...);

double f(double a, const double *v, int n, double s, double b) {
  double r = 0.0;
  for (int i = 0; i < n; i++)
    r += v[i] * sin(a * i + b) * s;
  return r + exp(a * s) * b + s * b * b;
}

enum { N = 4 };
static double A = 0.7, S = 1.3, B = -0.45;
static double V[N] = {0.5, -1.1, 0.9, 0.2};
/* w = [a, b, v...] */
static double f_fd(double *w, void *ctx) {
  (void)ctx;
  return f(w[0], w + 2, N, S, w[1]);
}

int main(void) {
  double dv[N] = {0};
  Grad2 g = __capsule_autodiff_2((void *)f, capsule_out, A, capsule_dup, V, dv,
                                 capsule_const, N, capsule_const, S,
                                 capsule_out, B);
  double w[2 + N] = {A, B}, got[2 + N] = {g.a, g.b}, cf[2 + N];
  memcpy(w + 2, V, sizeof V);
  memcpy(got + 2, dv, sizeof dv);
  cf[0] = S * exp(A * S) * B;
  cf[1] = exp(A * S) + 2.0 * S * B;
  for (int i = 0; i < N; i++) {
    cf[0] += V[i] * cos(A * i + B) * i * S;
    cf[1] += V[i] * cos(A * i + B) * S;
    cf[2 + i] = sin(A * i + B) * S;
  }
  check_grad_cf_fd("d[a, b, v]", got, cf, f_fd, 0, w, 2 + N);
  return check_report();
}
