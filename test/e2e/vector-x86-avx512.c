// AVX-512's max and min of doubles and floats (llvm.x86.avx512.max.pd.512
// and friends, which take a rounding operand besides; Eigen's pmax and pmin
// with -march=native on processors that have AVX-512), and its sign-bit
// masks on doubles (absolute values as an integer `and`): gradients and
// tangents against finite differences at -O0 and -O2, and checkpointed.
// Run only where the processor has AVX-512 (lit.cfg.py).
// REQUIRES: avx512f
// RUN: %clang -O0 -g -mavx512f %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g -mavx512f %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g -mavx512f %capsule_cflags -- %capsule_ldflags -lm
#include <immintrin.h>
#include <capsule/capsule.h>
#include "include/check.h"

#define N 16

static double sum8(__m512d v) {
  double o[8];
  _mm512_storeu_pd(o, v);
  double s = 0;
  for (int i = 0; i < 8; ++i)
    s += (i + 1) * o[i];
  return s;
}
static double sum16(__m512 v) {
  float o[16];
  _mm512_storeu_ps(o, v);
  double s = 0;
  for (int i = 0; i < 16; ++i)
    s += (1 + 0.5 * i) * o[i];
  return s;
}

static double max_min(const double *x) {
  __m512d a = _mm512_loadu_pd(x), b = _mm512_loadu_pd(x + 8);
  return sum8(_mm512_max_pd(a, b)) * sum8(_mm512_min_pd(a, b)) +
         sum8(_mm512_abs_pd(_mm512_sub_pd(a, b)));
}
static double max_min_fd(double *x, void *ctx) {
  (void)ctx;
  return max_min(x);
}

/* Floats: central differences of float code are too coarse, so against
 * the closed form below. c = x, d = x reversed, in float. */
static double max_min_float(const double *x) {
  float f[N], g[N];
  for (int i = 0; i < N; ++i) {
    f[i] = (float)x[i];
    g[i] = (float)x[N - 1 - i];
  }
  __m512 c = _mm512_loadu_ps(f), d = _mm512_loadu_ps(g);
  return sum16(_mm512_max_ps(c, d)) * x[0] + sum16(_mm512_min_ps(c, d));
}
/* Lane i of max(c, d) is x[i] where x[i] > x[N - 1 - i], else x[N - 1 - i];
 * min the other one; lane i weighs 1 + i / 2 in sum16. */
static double max_min_float_partial(const double *x, int k) {
  double p = 0, big = 0;
  for (int i = 0; i < N; ++i) {
    float c = (float)x[i], d = (float)x[N - 1 - i];
    double w = 1 + 0.5 * i;
    int from_max = c > d ? i : N - 1 - i, from_min = c < d ? i : N - 1 - i;
    big += w * (c > d ? c : d);
    p += w * ((from_max == k) * x[0] + (from_min == k));
  }
  return p + (k == 0) * big;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 * ((i * 7) % 11) - 1.2 + 0.01 * i;
  CHECK_GRADIENT_AND_TANGENTS(max_min, x, N);
  CHECK_GRADIENT_AND_TANGENTS_CF(max_min_float, x, N, max_min_float_partial,
                                 CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  return check_report();
}
