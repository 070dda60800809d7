// Interruptible execution: libm functions that return a second result
// through a pointer (modf splitting an array in place, frexp storing the
// exponents, remquo the quotient bits) and fmod, lround and lrint; the
// arrays they write and the returned sum must be identical after an
// interruption at any step, including when a capsule is resumed twice
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <math.h>

double outptr(double *a, double *frac, int *exps, int *quo, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    frac[i] = modf(a[i], &a[i]); /* a[i] becomes its integer part */
    double m = frexp(frac[i] + a[i] * 3, &exps[i]);
    double r = remquo(a[i] + 0.5, 1.75, &quo[i]);
    s += frac[i] + m * exps[i] + r * quo[i] + fmod(a[i], 1.5) +
         (double)lround(frac[i] * 10) + (double)lrint(m * 8);
  }
  return s;
}

static double a[12], frac[12];
static int exps[12], quo[12];
static void reset(void) {
  for (int i = 0; i < 12; ++i) {
    a[i] = i * 1.37 - 6.2;
    frac[i] = 0;
    exps[i] = -99;
    quo[i] = -99;
  }
}
DEFINE_RUNNERS(double, outptr, a, frac, exps, quo, 12)
static const struct region regions[] = {
    {a, sizeof a}, {frac, sizeof frac}, {exps, sizeof exps}, {quo, sizeof quo}};

int main(void) {
  struct program p = {
      "math-libm-outptr", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,      regions,        4,     4096};
  return check_interruptible(&p) != 0;
}
