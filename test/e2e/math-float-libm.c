// float libm: sinf, cosf, expf, logf, sqrtf, powf (active exponent), tanhf, fabsf on a dup float array; float tolerance.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

float f(const float *x) {
  return sinf(x[0]) * expf(x[1]) + sqrtf(x[2]) * logf(x[2] + x[0]) +
         powf(x[2], x[3]) + tanhf(x[3]) * cosf(x[1]) + powf(x[0], 2.0f) +
         fabsf(x[1]) * x[3];
}

/* The same formula in double: the reference. */
static double f_double(double *x, void *ctx) {
  (void)ctx;
  return sin(x[0]) * exp(x[1]) + sqrt(x[2]) * log(x[2] + x[0]) +
         pow(x[2], x[3]) + tanh(x[3]) * cos(x[1]) + pow(x[0], 2.0) +
         fabs(x[1]) * x[3];
}

int main(void) {
  float x[4] = {0.75f, -0.5f, 1.625f, 1.25f};
  float dx[4] = {0, 0, 0, 0};
  double xd[4], dxd[4];
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  for (int i = 0; i < 4; i++) {
    xd[i] = x[i];
    dxd[i] = dx[i];
  }
  /* float: ~1e-7 rounding per operation, reference in double. */
  check_grad_fd_tol("dx", dxd, f_double, 0, xd, 4, CHECK_FLOAT_RTOL,
                    CHECK_FLOAT_ATOL);
  return check_report();
}
