// float scalars passed by value through the C++ template marker (no variadic promotion): one float out at a time, the other argument const.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

float f1(float x) { return x * std::sin(x) + std::exp(0.5f * x); }
float f2(float x, float y) { return x * x * y + std::sqrt(x + y * y); }

int main() {
  float x = 0.8f, y = -1.3f;
  float d1 = __capsule_autodiff<float>((void *)f1, capsule_out, x);
  double xd = x, yd = y;
  /* float: ~1e-7 rounding per operation, closed forms in double */
  check_close("f1 dx", d1, std::sin(xd) + xd * std::cos(xd) + 0.5 * std::exp(0.5 * xd),
              CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  float gx = __capsule_autodiff<float>((void *)f2, capsule_out, x, capsule_const, y);
  float gy = __capsule_autodiff<float>((void *)f2, capsule_const, x, capsule_out, y);
  double r = std::sqrt(xd + yd * yd);
  check_close("f2 dx", gx, 2 * xd * yd + 0.5 / r, CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  check_close("f2 dy", gy, xd * xd + yd / r, CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  return check_report();
}
