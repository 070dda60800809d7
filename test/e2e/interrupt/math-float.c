// Interruptible execution: single-precision arithmetic and float libm calls
// (sinf, cosf, expf, logf, sqrtf, powf, fabsf, fminf, fmaxf) with float
// accumulators and float <-> double conversions, returning a float; the
// float arrays and the returned float must be bit-identical after an
// interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <math.h>

float floats(float *v, float *w, int n) {
  float acc = 0.0f;
  double wide = 0;
  for (int it = 0; it < 3; ++it)
    for (int i = 0; i < n; ++i) {
      float x = v[i];
      float y = sinf(x) * cosf(x * 0.5f) + expf(-fabsf(x)) + sqrtf(fabsf(x));
      y += logf(1.0f + x * x) - powf(fabsf(x) + 1.0f, 0.3f);
      y = fminf(fmaxf(y, -3.0f), 3.0f);
      w[i] = w[i] * 0.5f + y;
      v[i] = x + 0.1f * y;
      acc += y * (float)(i + 1);
      wide += (double)y * 1e-3;
    }
  return acc + (float)wide;
}

static float xs[16], ws[16];
static void reset(void) {
  for (int i = 0; i < 16; ++i) {
    xs[i] = (float)i * 0.41f - 3.0f;
    ws[i] = 0.25f * (float)(i % 3);
  }
}
DEFINE_RUNNERS(float, floats, xs, ws, 16)
static const struct region regions[] = {{xs, sizeof xs}, {ws, sizeof ws}};

int main(void) {
  struct program p = {"math-float", sizeof(float), reset,   plain_run,
                      primops_run,  interrupt_run, regions, 2,
                      4096};
  return check_interruptible(&p) != 0;
}
