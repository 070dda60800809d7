// Derivatives of sin beside cos (and sinh beside cosh) of the same argument
// reuse the program's own results: rotations, in one block, in branches,
// on different arguments that must not be taken for siblings, in float.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

// A plane rotation of (x[2], x[3]) by the angle x[0] + x[1].
double rotate(const double *x) {
  double t = x[0] + x[1], c = cos(t), s = sin(t);
  double u = c * x[2] - s * x[3], v = s * x[2] + c * x[3];
  return u * u * u + 2 * v;
}
CHECK_FD_OF(rotate)

// sin before cos, each used once, the argument computed.
double sin_first(const double *x) {
  double t = x[0] * x[1];
  double s = sin(t);
  double c = cos(t);
  return s * x[2] + c * c * x[3];
}
CHECK_FD_OF(sin_first)

// Same function, different arguments: neither is the other's sibling.
double two_angles(const double *x) {
  double c = cos(x[0]), s = sin(x[1]);
  double c2 = cos(x[1]), s2 = sin(x[0]);
  return c * s + 3 * c2 * s2 * s2 + x[2] * x[3];
}
CHECK_FD_OF(two_angles)

// cos in one branch, sin after the join: different blocks.
double branches(const double *x) {
  double t = x[0] - x[3], r = x[2];
  if (x[1] > 0)
    r *= cos(t);
  return r + sin(t) * x[1];
}
CHECK_FD_OF(branches)

// Two rotations per iteration of a loop, angles from the data.
double loop_rotations(const double *x) {
  double a = x[2], b = x[3];
  for (int k = 0; k < 5; k++) {
    double t = x[0] + 0.3 * k * x[1], c = cos(t), s = sin(t);
    double a2 = c * a - s * b;
    b = s * a + c * b;
    a = a2;
  }
  return a * b;
}
CHECK_FD_OF(loop_rotations)

double hyperbolic(const double *x) {
  double t = x[0] * x[2] + x[1];
  double ch = cosh(t), sh = sinh(t);
  return ch * x[3] + sh * sh;
}
CHECK_FD_OF(hyperbolic)

// float: sinf and cosf of one float argument.
double rotate_float(const double *x) {
  float t = (float)x[0] + (float)x[1];
  float c = cosf(t), s = sinf(t);
  return (double)(c * (float)x[2] - s * (float)x[3]);
}
static double rotate_float_ref(double *x, int i) {
  double t = x[0] + x[1];
  double dt = -sin(t) * x[2] - cos(t) * x[3];
  double d[4] = {dt, dt, cos(t), -sin(t)};
  return d[i];
}

int main(void) {
  double x[4] = {0.4, 0.7, 1.3, -0.6};
  CHECK_GRADIENT_AND_TANGENTS(rotate, x, 4);
  CHECK_GRADIENT_AND_TANGENTS(sin_first, x, 4);
  CHECK_GRADIENT_AND_TANGENTS(two_angles, x, 4);
  CHECK_GRADIENT_AND_TANGENTS(branches, x, 4);
  x[1] = -0.2; // the other branch
  CHECK_GRADIENT_AND_TANGENTS(branches, x, 4);
  x[1] = 0.7;
  CHECK_GRADIENT_AND_TANGENTS(loop_rotations, x, 4);
  CHECK_GRADIENT_AND_TANGENTS(hyperbolic, x, 4);

  CHECK_GRADIENT_AND_TANGENTS_CF(rotate_float, x, 4, rotate_float_ref,
                                 CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  return check_report();
}
