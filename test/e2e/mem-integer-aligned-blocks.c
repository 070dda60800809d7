// Memory aligned by the program itself, on integers: a block from malloc
// whose address is rounded up to 64 bytes as a uintptr_t, the original
// pointer kept just below the aligned one for free (as Eigen does with
// AVX), and aligned arrays carved out of one block by integer arithmetic
// (errors/integer-address-from-memory.c: when the integer goes through
// memory). The aligned pointers are the blocks' addresses moved
// by offsets, and their shadows the shadows' moved by the same offsets
// (Support/IntegerAddresses.h). Reverse and forward mode at -O0 and -O2,
// checkpointed.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck2 -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "include/check.h"

enum { N = 7 };

static void *alignedAlloc(size_t bytes) {
  void *raw = malloc(bytes + 64);
  uintptr_t aligned = ((uintptr_t)raw + 64) & ~(uintptr_t)63;
  void **block = (void **)aligned;
  block[-1] = raw;
  return block;
}

static void alignedFree(void *p) { free(((void **)p)[-1]); }

double f(const double *x) {
  double *w = alignedAlloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    w[i] = x[i] * x[(i + 3) % N];
  // Two arrays in one block, the second at the next multiple of 32 bytes.
  char *pool = malloc(1024);
  double *u = (double *)(((uintptr_t)pool + 3 + 31) & ~(uintptr_t)31);
  double *v = (double *)(((uintptr_t)(u + N) + 31) & ~(uintptr_t)31);
  for (int i = 0; i < N; i++)
    u[i] = sin(w[i]) + w[(i + 1) % N];
  v[0] = u[0] * u[N - 1];
  v[1] = v[0] + u[2];
  double s = v[1] * 0.5;
  for (int i = 0; i < N; i++)
    s += u[i] * w[i];
  free(pool);
  alignedFree(w);
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x); }

int main(void) {
  double x[N], dx[N] = {0}, t[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.35 + 0.17 * i;
    t[i] = 0.2 - 0.05 * i;
  }
  __capsule_autodiff((void *)f, capsule_dup, x, dx);
  check_grad_fd("gradient", dx, f_fd, NULL, x, N);
  double directional = 0;
  for (int i = 0; i < N; i++)
    directional += dx[i] * t[i];
  check_close("tangent", __capsule_fwddiff((void *)f, x, t), directional,
              1e-12, 1e-12);
  return check_report();
}
