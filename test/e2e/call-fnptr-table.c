// Indirect calls through a table of function pointers to functions in this file, chosen by a const int array and by an int computed from the data.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

typedef double (*binop)(double, double);
static double op_mul(double a, double p) { return a * p; }
static double op_sin(double a, double p) { return sin(a * p); }
double op_exp(double a, double p) { return exp(0.5 * a) * p; }
static double op_rat(double a, double p) { return a / (1.0 + p * p); }

static binop const table[4] = {op_mul, op_sin, op_exp, op_rat};
static binop mutable_table[4]; /* filled at run time */

double f(const double *x, const int *sel, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += table[sel[i]](x[i], x[(i + 1) % n]);
  int k = (int)floor(2.0 * x[0]) & 3; /* chosen by the data */
  s += mutable_table[k](x[1], x[2]);
  return s;
}

static const int SEL[6] = {2, 0, 3, 1, 1, 2};
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, SEL, 6);
}

int main(void) {
  for (int i = 0; i < 4; i++)
    mutable_table[i] = table[3 - i];
  /* floor(2 x0) = 3 -> mutable_table[3] = op_mul */
  double x[6] = {1.7, -0.6, 0.8, 1.2, -1.3, 0.45};
  double dx[6] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, SEL,
                       capsule_const, 6);
  check_grad_fd("dx", dx, f_fd, 0, x, 6);
  return check_report();
}
