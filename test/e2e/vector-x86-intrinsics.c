// x86 SIMD operations with x86-specific forms: SSE2 and AVX max/min of doubles (llvm.x86.sse2.max.pd and friends), Eigen's pmax/pmin in inline assembly (maxpd and minpd with a tied operand, vmaxpd with three), horizontal addition and subtraction of doubles (SSE3 and AVX), and reductions by maximum and minimum (__builtin_reduce_max on a vector); gradients and tangents against finite differences at -O0 to -O3, and checkpointed.
// RUN: %clang -O0 -g -mavx %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g -mavx %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g -mavx %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g -mavx %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g -mavx %capsule_cflags -- %capsule_ldflags -lm
#include <immintrin.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"


#define N 8

static double sum2(__m128d v) {
  double o[2];
  _mm_storeu_pd(o, v);
  return o[0] + 3 * o[1];
}
static double sum4(__m256d v) {
  double o[4];
  _mm256_storeu_pd(o, v);
  return o[0] + 2 * o[1] + 3 * o[2] + 4 * o[3];
}

static double max_min(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  __m256d c = _mm256_loadu_pd(x), d = _mm256_loadu_pd(x + 4);
  return sum2(_mm_max_pd(a, b)) * sum2(_mm_min_pd(a, b)) +
         sum4(_mm256_max_pd(c, d)) + sum4(_mm256_min_pd(c, d)) * x[0];
}
static double max_min_fd(double *x, void *ctx) {
  (void)ctx;
  return max_min(x);
}

/* Eigen's pmax and pmin (Eigen/src/Core/arch/SSE/PacketMath.h), which it
 * writes in assembly for compilers claiming to be GCC older than 6.3. */
static __m128d asm_max(__m128d a, __m128d b) {
  __m128d res = b;
  __asm__("maxpd %[a], %[res]" : [res] "+x"(res) : [a] "x"(a));
  return res;
}
static __m128d asm_min(__m128d a, __m128d b) {
  __m128d res = b;
  __asm__("minpd %[a], %[res]" : [res] "+x"(res) : [a] "x"(a));
  return res;
}
static __m128d asm_vmax(__m128d a, __m128d b) {
  __m128d res;
  __asm__("vmaxpd %[a], %[b], %[res]" : [res] "=x"(res) : [a] "x"(a), [b] "x"(b));
  return res;
}
static double inline_asm(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2), c = _mm_loadu_pd(x + 4);
  return sum2(asm_max(a, b)) * sum2(asm_min(b, c)) + sum2(asm_vmax(c, a));
}
static double inline_asm_fd(double *x, void *ctx) {
  (void)ctx;
  return inline_asm(x);
}

static double horizontal(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  __m256d c = _mm256_loadu_pd(x), d = _mm256_loadu_pd(x + 4);
  return sum2(_mm_hadd_pd(_mm_mul_pd(a, b), a)) * sum2(_mm_hsub_pd(b, a)) +
         sum4(_mm256_hadd_pd(_mm256_mul_pd(c, d), c)) +
         sum4(_mm256_hsub_pd(d, c)) * x[7];
}
static double horizontal_fd(double *x, void *ctx) {
  (void)ctx;
  return horizontal(x);
}

typedef double v4d __attribute__((vector_size(32)));
static double reductions(const double *x) {
  v4d a, b;
  memcpy(&a, x, sizeof a);
  memcpy(&b, x + 4, sizeof b);
  return __builtin_reduce_max(a * b) * __builtin_reduce_min(a + b) +
         __builtin_reduce_max(a);
}
static double reductions_fd(double *x, void *ctx) {
  (void)ctx;
  return reductions(x);
}


int main(void) {
  /* Distinct values, no ties between the operands compared. */
  double x[N] = {0.7, -1.3, 2.1, -0.4, -0.9, 1.6, 0.25, -2.2};
  CHECK_GRADIENT_AND_TANGENTS(max_min, x, N);
  CHECK_GRADIENT_AND_TANGENTS(inline_asm, x, N);
  CHECK_GRADIENT_AND_TANGENTS(horizontal, x, N);
  CHECK_GRADIENT_AND_TANGENTS(reductions, x, N);
  return check_report();
}
