// Reciprocals 1/x, whose derivatives use the result instead of dividing
// again (d(1/x) = -(1/x)^2 dx): scalars, chains, floats, vectors of the
// vectoriser's and of vector_size, beside quotients that are not
// reciprocals (-1/x, 2/x); gradients and tangents.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include "include/check.h"

double chain(const double *x) {
  double r = 1.0 / x[0];
  double s = 1.0 / (x[1] * r + x[2]);
  return r * s + 1.0 / (r + s) - 1.0 / x[3] + 2.0 / x[1];
}
CHECK_FD_OF(chain)

// Eight reciprocals in a loop the vectoriser turns into vector divisions.
double vectorised(const double *x) {
  double r[8], s = 0;
  for (int i = 0; i < 8; i++)
    r[i] = 1.0 / (x[i % 4] + 0.25 * i);
  for (int i = 0; i < 8; i++)
    s += r[i] * r[(i + 3) % 8];
  return s;
}
CHECK_FD_OF(vectorised)

typedef double v2 __attribute__((vector_size(16)));
double vector_size(const double *x) {
  v2 a = {x[0], x[1]}, b = {x[2], x[3]};
  v2 r = 1.0 / (a * b) + (v2){1.0, 1.0} / a;
  return r[0] * x[3] + r[1];
}
CHECK_FD_OF(vector_size)

double in_float(const double *x) {
  float r = 1.0f / (float)x[0];
  return (double)(r * r) + x[1];
}
static double in_float_cf(double *x, int i) {
  return i == 0 ? -2.0 / (x[0] * x[0] * x[0]) : i == 1 ? 1.0 : 0.0;
}

int main(void) {
  double x[4] = {0.8, -1.7, 2.5, -0.4};
  CHECK_GRADIENT_AND_TANGENTS(chain, x, 4);
  CHECK_GRADIENT_AND_TANGENTS(vectorised, x, 4);
  CHECK_GRADIENT_AND_TANGENTS(vector_size, x, 4);
  CHECK_GRADIENT_AND_TANGENTS_CF(in_float, x, 4, in_float_cf, CHECK_FLOAT_RTOL,
                                 CHECK_FLOAT_ATOL);
  return check_report();
}
