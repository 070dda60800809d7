// Masked memory operations at the link: compiled with -flto for a target
// that makes them cheap (-march=skylake: AVX2), the compile's vectorizer
// turns x[idx[i]] into llvm.masked.gather (a lookup, the fields of an array
// of structs, a table interpolation), conditional stores and loads into
// llvm.masked.store and .load, y[idx[i]] = ... into llvm.masked.scatter,
// and with -ffast-math a sum into llvm.vector.reduce.fadd. Capsule
// differentiates that code at the link: the gathers' derivatives came back
// 0 without a word, the rest was refused. They are taken lane by lane now
// (Support/MaskedMemoryLanes.h; the reductions: Support/X86VectorOps.h).
// Reverse and forward mode against central differences.
// REQUIRES: avx2-fma
// RUN: rm -rf %t && mkdir -p %t
// RUN: for F in "-O2" "-O3" "-O3 -ffast-math"; do \
// RUN:   %clang $F -flto -march=skylake %capsule_cflags -c %s -o %t/main.o && \
// RUN:   %clang $F -flto -march=skylake %t/main.o $(%capsule_config --lto-ldflags --ldflags) -o %t/prog && %t/prog || exit 1; \
// RUN: done
#include <capsule/capsule.h>
#include <math.h>
#include "include/check.h"

enum { N = 40 };

static int idx[N];     /* a permutation, set at run time */
static int active[N];  /* which entries a step updates */

typedef struct {
  double x, v, m;
} particle;

/* y[i] = w[i] * x[idx[i]], then a weighted sum: gathers. */
static double lookup(const double *p) {
  double y[N], s = 0;
  for (int i = 0; i < N; i++)
    y[i] = p[i] * p[idx[i]];
  for (int i = 0; i < N; i++)
    s += y[i] * (1 + i % 3);
  return s;
}

/* The kinetic energy of particles whose fields come from p: strided
 * loads of an array of structs. */
static double kinetic(const double *p) {
  particle ps[N];
  for (int i = 0; i < N; i++) {
    ps[i].x = p[i];
    ps[i].v = sin(p[(i + 1) % N]);
    ps[i].m = 1 + 0.1 * i;
  }
  double e = 0;
  for (int i = 0; i < N; i++)
    e += 0.5 * ps[i].m * ps[i].v * ps[i].v + ps[i].x * ps[i].v;
  return e;
}

/* Conditional loads and stores: masked under AVX2. */
static double masked(const double *p) {
  double y[N];
  for (int i = 0; i < N; i++)
    y[i] = p[i];
  for (int i = 0; i < N; i++)
    if (active[i])
      y[i] = y[i] * y[i] + p[(i + 3) % N];
  double s = 0;
  for (int i = 0; i < N; i++)
    s += active[i] ? y[i] * p[i] : 0.5 * y[i];
  return s;
}

/* y[idx[i]] = ...: a scatter. */
static double scattered(const double *p) {
  double y[N];
  for (int i = 0; i < N; i++)
    y[idx[i]] = p[i] * (2 + i % 5);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i] * y[i] * (1 + i % 2);
  return s;
}

/* A linearly interpolated table at points computed from p. */
static double table[N];
static double interpolate(const double *p) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    double t = fabs(p[i]) * 4;
    int k = (int)t % (N - 1);
    double f = t - floor(t);
    s += (1 - f) * table[k] + f * table[k + 1];
  }
  return s;
}

CHECK_FD_OF(lookup)
CHECK_FD_OF(kinetic)
CHECK_FD_OF(masked)
CHECK_FD_OF(scattered)
CHECK_FD_OF(interpolate)

int main(void) {
  double p[N];
  for (int i = 0; i < N; i++) {
    idx[i] = (i * 13) % N;
    active[i] = (i * 7) % 3 == 0;
    table[i] = cos(0.3 * i);
    p[i] = 0.2 + 0.05 * i + 0.01 * sin(i); /* away from the table's knots */
  }
  CHECK_GRADIENT_AND_TANGENTS(lookup, p, N);
  CHECK_GRADIENT_AND_TANGENTS(kinetic, p, N);
  CHECK_GRADIENT_AND_TANGENTS(masked, p, N);
  CHECK_GRADIENT_AND_TANGENTS(scattered, p, N);
  CHECK_GRADIENT_AND_TANGENTS(interpolate, p, N);
  return check_report();
}
