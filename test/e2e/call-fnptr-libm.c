// Library functions called through function pointers: a table mixing libm with functions of this file, a libm function passed as a callback, float libm through a float pointer, and free() passed as a deleter.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <stdlib.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

typedef double (*unary)(double);
static double cube(double t) { return t * t * t; }
/* Mutable, filled at run time: nothing can fold the targets. */
static unary table[5];

/* Midpoint rule: the integrand arrives as a parameter. */
static double integrate(unary g, double a, double b, int n) {
  double h = (b - a) / n, s = 0.0;
  for (int i = 0; i < n; i++)
    s += g(a + (i + 0.5) * h);
  return s * h;
}

double f(const double *x, const int *sel, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += table[sel[i]](x[i]);
  unary g = x[0] > 0.0 ? exp : cos;
  s += integrate(g, 0.0, x[1], 8);
  float (*gf)(float) = sinf;
  s += gf((float)x[2]);
  double *scratch = malloc(2 * sizeof *scratch);
  void (*release)(void *) = free;
  scratch[0] = x[3] * x[3];
  scratch[1] = tanh(scratch[0]);
  s += scratch[1];
  release(scratch);
  return s;
}

enum { N = 5 };
static const int sel[N] = {0, 1, 2, 3, 4};
static double fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, sel, N);
}

int main(void) {
  table[0] = sin;
  table[1] = exp;
  table[2] = cube;
  table[3] = sqrt;
  table[4] = atan;
  double x[N] = {0.7, 1.3, 0.4, 0.9, -0.6}, dx[N] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, sel,
                       capsule_const, N);
  for (int i = 0; i < N; i++) {
    char name[64];
    snprintf(name, sizeof name, "libm through pointers (fd)[%d]", i);
    /* x[2] reaches the result through sinf: float rounding makes its
       finite difference useless, so it gets a closed form below. */
    if (i != 2)
      check_close(name, dx[i], check_fd_partial(fd, 0, x, N, i),
                  CHECK_FD_RTOL, CHECK_FD_ATOL);
  }
  check_close("d/dx2 cube (table) and sinf through a float pointer", dx[2],
              3 * x[2] * x[2] + cos(x[2]), CHECK_FLOAT_RTOL,
              CHECK_FLOAT_ATOL);
  check_cf("d/dx0 sin (table)", dx[0], cos(x[0]));
  check_cf("d/dx3 sqrt (table) and tanh in free()d scratch", dx[3],
           0.5 / sqrt(x[3]) +
               2 * x[3] * (1 - tanh(x[3] * x[3]) * tanh(x[3] * x[3])));
  check_cf("d/dx4 atan (table)", dx[4], 1.0 / (1.0 + x[4] * x[4]));
  return check_report();
}
