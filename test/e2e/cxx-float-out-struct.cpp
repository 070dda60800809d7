// Two float out scalars through the C++ template marker: the adjoints come back as a struct of two floats (returned in one vector register on x86-64).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

float f2(float x, float y) { return x * x * y + std::sqrt(x + y * y); }
struct Grad2f {
  float dx, dy;
};

int main() {
  float x = 0.8f, y = -1.3f;
  double xd = x, yd = y, r = std::sqrt(xd + yd * yd);
  Grad2f g = __capsule_autodiff<Grad2f>((void *)f2, capsule_out, x, capsule_out, y);
  /* float: ~1e-7 rounding per operation, closed forms in double */
  check_close("f2 dx", g.dx, 2 * xd * yd + 0.5 / r, CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  check_close("f2 dy", g.dy, xd * xd + yd / r, CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  return check_report();
}
