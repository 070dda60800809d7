// Calls through function pointers declared without a prototype (`double
// (*func)()`, as K&R C, Numerical Recipes' first edition and old netlib
// code declare callbacks), to functions defined with a prototype and in the
// K&R style, chosen at run time from a table. Clang calls such a pointer
// through a variadic type, which was refused as an indirect call of a
// variadic function. A pointer to a variadic function called with its
// named arguments only stays such a call (not in the checkpointed build:
// variadic functions cannot be made interruptible). Gradient and tangents
// against finite differences.
// RUN: %clang -O0 -g -Wno-deprecated-non-prototype %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g -Wno-deprecated-non-prototype %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g -Wno-deprecated-non-prototype %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g -Wno-deprecated-non-prototype %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g -Wno-deprecated-non-prototype -DNO_VARIADIC %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <math.h>
#include <stdarg.h>
#include "include/check.h"

static double lin(double x, double *p, int k) { return p[0] * x + p[1]; }
static double wave(double x, double *p, int k) {
  return p[0] * x * x + sin(p[1] * x) * k;
}
static double growth(x, p, k) /* K&R definition */
double x;
double *p;
int k;
{
  return exp(p[0] * x) * p[1] + k * x;
}

/* Midpoint rule for the integral over [0, 1] of a callback that takes the
 * point, the parameters and the point's index. */
static double midpoint(double (*func)(), double *p, int n) {
  double s = 0, h = 1.0 / n;
  for (int j = 0; j < n; j++)
    s += (*func)((j + 0.5) * h, p, j);
  return s * h;
}

static double (*rules[3])(); /* filled at run time */

#ifndef NO_VARIADIC
/* A variadic function of constants, called through its own type. */
static double offset = 0.25;
static double total(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = offset;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}
static double (*summer)(int, ...); /* filled at run time */
#endif

static double integrals(const double *p) {
  double s = 0;
  for (int k = 0; k < 3; k++)
    s += (k + 1) * midpoint(rules[k], (double *)p, 8);
#ifndef NO_VARIADIC
  s += p[1] * summer(0);
#endif
  return s;
}

CHECK_FD_OF(integrals)

int main(void) {
  rules[0] = wave;
  rules[1] = growth;
  rules[2] = lin;
#ifndef NO_VARIADIC
  summer = total;
#endif
  double p[2] = {0.7, -1.3};
  CHECK_GRADIENT_AND_TANGENTS(integrals, p, 2);
  return check_report();
}
