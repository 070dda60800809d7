// Interruptible execution: three nested loops, a rectangular matrix product
// and a triangular i <= j <= k accumulation; the product and the triangle
// sums written to caller arrays must be identical after an interruption at
// any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

#define N 6

void nested(const double *A, const double *B, double *C, long *tri) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < N; ++k)
        s += A[i * N + k] * B[k * N + j];
      C[i * N + j] = s;
    }
  for (int i = 0; i < N; ++i) {
    long t = 0;
    for (int j = i; j < N; ++j)
      for (int k = j; k < N; ++k)
        t += (long)(i + 1) * (j + 2) * (k + 3);
    tri[i] = t;
  }
}

static double A[N * N], B[N * N], C[N * N];
static long tri[N];
static void reset(void) {
  for (int i = 0; i < N * N; ++i) {
    A[i] = (i % 7) * 0.5 - 1;
    B[i] = (i % 5) * 0.25 + 0.125;
    C[i] = 0;
  }
  for (int i = 0; i < N; ++i)
    tri[i] = 0;
}
DEFINE_VOID_RUNNERS(nested, A, B, C, tri)
static const struct region regions[] = {
    {A, sizeof A}, {B, sizeof B}, {C, sizeof C}, {tri, sizeof tri}};

int main(void) {
  struct program p = {"loop-nested3", 0,       reset, plain_run,  primops_run,
                      interrupt_run,  regions, 4,     4096 + 1024};
  return check_interruptible(&p) != 0;
}
