// Interruptible execution: conversions between integer and floating-point
// types in both directions (int, unsigned, long, long long, short, signed
// and unsigned char to and from float and double; truncation, lround,
// rint, and integer overflow-free narrowing), accumulated into int and
// double arrays; the arrays and the returned checksum must be identical
// after an interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <math.h>

long casts(const double *in, int n, long *ints, double *fps) {
  long check = 0;
  for (int i = 0; i < n; ++i) {
    double d = in[i];
    int a = (int)d;
    unsigned u = (unsigned)fabs(d * 3);
    long l = (long)(d * 1e6);
    long long ll = (long long)(d * -12345.678);
    short s = (short)(int)(d * 100);
    signed char sc = (signed char)(int)(d * 10);
    unsigned char uc = (unsigned char)(unsigned)fabs(d * 10);
    float f = (float)d;
    long r = lround(d * 2.5);
    double ri = rint(d * 1.5);
    ints[i * 4 + 0] = a + (long)u;
    ints[i * 4 + 1] = l ^ (long)ll;
    ints[i * 4 + 2] = s * 1000 + sc * 10 + uc;
    ints[i * 4 + 3] = r + (long)ri;
    fps[i * 3 + 0] = (double)a + (double)u * 0.5 + (float)l;
    fps[i * 3 + 1] = (double)(float)ll + (double)s + sc + uc;
    fps[i * 3 + 2] = (double)(f * 3.0f) + (double)(unsigned long)u;
    check = check * 31 + ints[i * 4] + ints[i * 4 + 2] + (long)fps[i * 3 + 1];
  }
  return check;
}

static double in[10], fps[30];
static long ints[40];
static void reset(void) {
  static const double v[10] = {0.0,  1.5,   -2.5,  3.999,  -0.49,
                               12.3, -7.75, 0.125, 100.01, -33.3};
  memcpy(in, v, sizeof in);
  memset(ints, 0, sizeof ints);
  memset(fps, 0, sizeof fps);
}
DEFINE_RUNNERS(long, casts, in, 10, ints, fps)
static const struct region regions[] = {
    {in, sizeof in}, {ints, sizeof ints}, {fps, sizeof fps}};

int main(void) {
  struct program p = {"math-int-fp-casts", sizeof(long),  reset,   plain_run,
                      primops_run,         interrupt_run, regions, 3,
                      4096 + 1024};
  return check_interruptible(&p) != 0;
}
