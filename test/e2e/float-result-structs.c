// Marker results that are structs of three floats (12 bytes): three float out arguments, a width-3 tangent of a float result, a float result returned with its two adjoints (enzyme_primal_return), and width-3 adjoints of a float out argument in vector reverse mode. x86-64 returns such a struct as { <2 x float>, float }, whose store size (16) counts tail padding: all four were refused ("the call's return type ... does not fit"), while 8- and 16-byte float structs worked. Against closed forms, at -O0 and -O2, and checkpointed.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include "check.h"

extern int enzyme_width, enzyme_dupv, enzyme_primal_return;

typedef struct { float a, b, c; } Three;
typedef struct { float value; struct { float da, db; } d; } ValueAndTwo;
typedef struct { float d[3]; } Lanes;

Three __enzyme_autodiff_three(void *, ...);
ValueAndTwo __enzyme_autodiff_value(void *, ...);
Lanes __enzyme_autodiff_lanes(void *, ...);
Lanes __enzyme_fwddiff_lanes(void *, ...);

float product(float x, float y, float z) { return x * y * z + z; }
float square(float x) { return x * x; }
float scaled(const float *x, float a) { return a * a * x[0]; }
float cubic(float a, float b) { return a * a * b; }

int main(void) {
  Three g = __enzyme_autodiff_three((void *)product, 2.0f, 3.0f, 4.0f);
  check_close("product dx", g.a, 12, CHECK_CF_RTOL, CHECK_CF_ATOL);
  check_close("product dy", g.b, 8, CHECK_CF_RTOL, CHECK_CF_ATOL);
  check_close("product dz", g.c, 7, CHECK_CF_RTOL, CHECK_CF_ATOL);

  Lanes t = __enzyme_fwddiff_lanes((void *)square, enzyme_width, 3, 3.0f,
                                   1.0f, 2.0f, 3.0f);
  for (int k = 0; k < 3; k++)
    check_close("square tangent", t.d[k], 6.0 * (k + 1), CHECK_CF_RTOL,
                CHECK_CF_ATOL);

  ValueAndTwo v =
      __enzyme_autodiff_value((void *)cubic, enzyme_primal_return, 2.0f, 3.0f);
  check_close("cubic value", v.value, 12, CHECK_CF_RTOL, CHECK_CF_ATOL);
  check_close("cubic da", v.d.da, 12, CHECK_CF_RTOL, CHECK_CF_ATOL);
  check_close("cubic db", v.d.db, 4, CHECK_CF_RTOL, CHECK_CF_ATOL);

  float x[1] = {5}, dx[3][2] = {{0}};
  Lanes r = __enzyme_autodiff_lanes((void *)scaled, enzyme_width, 3,
                                    enzyme_dupv, sizeof dx[0], x, dx[0], 2.0f);
  for (int k = 0; k < 3; k++) {
    check_close("scaled da", r.d[k], 20, CHECK_CF_RTOL, CHECK_CF_ATOL);
    check_close("scaled dx", dx[k][0], 4, CHECK_CF_RTOL, CHECK_CF_ATOL);
  }
  return check_report();
}
