// Memory aligned by the program itself, on integers: a block from malloc
// whose address is rounded up to 64 bytes as a uintptr_t, the original
// pointer kept just below the aligned one for free (as Eigen does with
// AVX), aligned arrays carved out of one block by integer arithmetic, and
// aligned pointers handed to helpers and returned from them
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

// Aligned pointers handed to a helper and returned from another.
__attribute__((noinline)) static void square(double *m, const double *x) {
  m[0] = x[0] * x[0];
}

__attribute__((noinline)) static double *align16(double *p) {
  return (double *)(((uintptr_t)p + 15) & ~(uintptr_t)15);
}

double handed(const double *x) {
  double buf[8];
  double *m = (double *)(((uintptr_t)buf + 15) & ~(uintptr_t)15);
  square(m, x);
  double *n = align16(buf);
  n[1] = x[1];
  return 3.0 * m[0] + n[1] * x[2];
}

static double f_fd(double *x, void *ctx) { return f(x); }
static double handed_fd(double *x, void *ctx) { return handed(x); }

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.35 + 0.17 * i;
  CHECK_GRADIENT_AND_TANGENTS(f, x, N);
  CHECK_GRADIENT_AND_TANGENTS(handed, x, N);
  return check_report();
}
