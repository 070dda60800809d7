// SIMD code that works on doubles' bits: absolute value, negation and negative absolute value by masking the sign bit (_mm_andnot_pd, _mm_xor_pd, _mm_or_pd with -0.0, as Eigen's pabs and pnegate do; -O2 turns them into integer and/xor/or between bitcasts or integer loads), doubles moved between lanes by 32-bit shuffles (_mm_shuffle_epi32, as Eigen's pbroadcast4 does), doubles loaded and stored as __m128i and cast back; a scalar absolute value by clearing the sign bit of a double memcpy'd into an integer (at -O0 too: the store of the cleared bits into the integer is a store of the absolute value); and sign operations stored straight into memory (_mm_storeu_pd of _mm_xor_pd into a heap block, into the caller's array, and into a temporary a function that is not inlined reads), whose derivative was lost without a word at -O1 and above. Gradients and tangents against finite differences; the masks are rewritten into fabs and fneg and the shuffles into shuffles of doubles, so the derivative does not vanish with the bits.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include <emmintrin.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"


#define N 6

/* Weighted sums of |x|, -x and -|x| over pairs of doubles. */
static double sign_masks(const double *x) {
  const __m128d sign = _mm_set1_pd(-0.0);
  __m128d abs_sum = _mm_setzero_pd(), neg_sum = _mm_setzero_pd(),
          nabs_sum = _mm_setzero_pd();
  for (int i = 0; i + 1 < N; i += 2) {
    __m128d v = _mm_loadu_pd(x + i);
    __m128d sq = _mm_mul_pd(v, v);
    abs_sum = _mm_add_pd(abs_sum, _mm_mul_pd(_mm_andnot_pd(sign, v), sq));
    neg_sum = _mm_add_pd(neg_sum, _mm_xor_pd(v, sign));
    nabs_sum = _mm_add_pd(nabs_sum, _mm_or_pd(sign, _mm_mul_pd(v, sq)));
  }
  double o[6];
  _mm_storeu_pd(o, abs_sum);
  _mm_storeu_pd(o + 2, neg_sum);
  _mm_storeu_pd(o + 4, nabs_sum);
  return o[0] + 2 * o[1] + 3 * o[2] * o[0] + o[3] + 0.5 * o[4] * o[5];
}
static double sign_masks_fd(double *x, void *ctx) {
  (void)ctx;
  return sign_masks(x);
}

/* Doubles moved as __m128i: loaded, stored into a local array of doubles,
 * and cast back. */
static double integer_vectors(const double *x) {
  double copy[N];
  for (int i = 0; i + 1 < N; i += 2) {
    __m128i bits = _mm_loadu_si128((const __m128i *)(x + i));
    _mm_storeu_si128((__m128i *)(copy + i), bits);
  }
  __m128d a = _mm_castsi128_pd(_mm_loadu_si128((const __m128i *)copy));
  a = _mm_mul_pd(a, _mm_loadu_pd(copy + 2));
  double o[2];
  _mm_storeu_pd(o, a);
  return o[0] + 2 * o[1] + copy[4] * copy[5];
}
static double integer_vectors_fd(double *x, void *ctx) {
  (void)ctx;
  return integer_vectors(x);
}

/* Each double of a pair broadcast to both lanes through its 32-bit halves
 * (Eigen's vec2d_swizzle1). */
static __m128d broadcast_lane(__m128d v, int hi) {
  __m128i bits = _mm_castpd_si128(v);
  return _mm_castsi128_pd(hi ? _mm_shuffle_epi32(bits, 0xEE)
                             : _mm_shuffle_epi32(bits, 0x44));
}
static double lane_shuffles(const double *x) {
  __m128d acc = _mm_setzero_pd();
  for (int i = 0; i + 1 < N; i += 2) {
    __m128d v = _mm_loadu_pd(x + i);
    acc = _mm_add_pd(acc, _mm_mul_pd(broadcast_lane(v, 0),
                                     _mm_mul_pd(v, broadcast_lane(v, 1))));
  }
  double o[2];
  _mm_storeu_pd(o, acc);
  return o[0] + 3 * o[1];
}
static double lane_shuffles_fd(double *x, void *ctx) {
  (void)ctx;
  return lane_shuffles(x);
}

static double scalar_bits(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    uint64_t u;
    memcpy(&u, &x[i], sizeof u);
    u &= 0x7fffffffffffffffULL;
    double a;
    memcpy(&a, &u, sizeof a);
    s += a * (i + 1) * x[i];
  }
  return s;
}
static double scalar_bits_fd(double *x, void *ctx) {
  (void)ctx;
  return scalar_bits(x);
}

__attribute__((noinline)) static double weigh(const double *p) {
  return p[0] * p[1] * p[1];
}

/* Negations stored into a heap block, into x's own tail and into a
 * temporary passed by reference (as Eigen passes a packet to pexp). */
static double stored_signs(double *x) {
  double *heap = malloc(2 * sizeof(double));
  __m128d sign = _mm_set1_pd(-0.0);
  _mm_storeu_pd(heap, _mm_xor_pd(_mm_loadu_pd(x), sign));
  _mm_storeu_pd(x + 4, _mm_andnot_pd(sign, _mm_loadu_pd(x + 2)));
  __m128d t = _mm_xor_pd(_mm_loadu_pd(x + 1), sign);
  double r = weigh(heap) + weigh(x + 4) + weigh((const double *)&t);
  free(heap);
  return r;
}
static double stored_signs_fd(double *x, void *ctx) {
  (void)ctx;
  return stored_signs(x);
}


int main(void) {
  /* Signs mixed, so that |x| and -|x| differ from x and -x. */
  double x[N] = {0.7, -1.3, 2.1, -0.4, -0.9, 1.6};
  CHECK_GRADIENT_AND_TANGENTS(sign_masks, x, N);
  CHECK_GRADIENT_AND_TANGENTS(integer_vectors, x, N);
  CHECK_GRADIENT_AND_TANGENTS(lane_shuffles, x, N);
  CHECK_GRADIENT_AND_TANGENTS(scalar_bits, x, N);
  CHECK_GRADIENT_AND_TANGENTS(stored_signs, x, N);
  return check_report();
}
