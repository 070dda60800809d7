// Interruptible execution: double-precision libm calls (sin, cos, tan, exp,
// log, log1p, sqrt, cbrt, pow, atan2, hypot, tanh, fmod, floor, ceil,
// fabs, asinh, lgamma, erfc, and modf, frexp and sincos writing through
// pointers into the table) inside a loop, mixed with arithmetic; the table
// of results and the returned sum must be bit-identical after an
// interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#define _GNU_SOURCE
#include "interrupt_check.h"
#include <math.h>

#define COLS 9

double libm(const double *x, int n, double *table) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double v = x[i], a = fabs(v);
    double *row = table + i * COLS;
    row[0] = sin(v) * cos(v * 0.5) + tan(v * 0.1);
    row[1] = exp(-a) + log(a + 1) + log1p(a * 0.25);
    row[2] = sqrt(a) + cbrt(v);
    row[3] = pow(a + 0.5, v * 0.3) + atan2(v, 1.5);
    row[4] = hypot(v, 2.0) * tanh(v);
    row[5] = fmod(v * 7.3, 2.5) + floor(v) - ceil(v * 0.5);
    row[6] = exp(sin(v)) * log(2 + cos(v));
    row[7] = pow(2.0, floor(v)) + sqrt(row[4] * row[4] + 1);
    row[8] = modf(v * 3.3, &row[1]) + asinh(v) + lgamma(v + 9.5);
    int e;
    row[2] = frexp(v * 1.7 + 40, &e) * e + erfc(v);
    sincos(v, &row[3], &row[4]);
    for (int c = 0; c < COLS; ++c)
      s += row[c] * (c + 1);
  }
  return s;
}

static double x[12], table[12 * COLS];
static void reset(void) {
  for (int i = 0; i < 12; ++i)
    x[i] = i * 0.73 - 4.1;
  memset(table, 0, sizeof table);
}
DEFINE_RUNNERS(double, libm, x, 12, table)
static const struct region regions[] = {{x, sizeof x}, {table, sizeof table}};

int main(void) {
  struct program p = {"math-libm", sizeof(double), reset,   plain_run,
                      primops_run, interrupt_run,  regions, 2,
                      4096 + 1024};
  return check_interruptible(&p) != 0;
}
