// Error: the fast inverse square root's trick (a double's bits read as an
// integer and computed with) loses the derivative through the bits. At -O2
// it is a bitcast; at -O0 a load through a cast pointer. Both are refused,
// naming the function and the line. So is, at -O0, a double memcpy'd into
// an integer whose low mantissa bits are then cleared (clearing the sign
// bit is an absolute value: mem-float-bit-operations.c), and SIMD integer
// operations on doubles' bits stored back into memory that has
// derivatives (which were stored without a word).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O0
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O2
// A checkpointed gradient differentiates a step function that reloads the
// argument pointers from its record: the checks see that memory too.
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O0
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O2
// Without -g the error stands at the user's function, not the step function.
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clang -O1 %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOG
#include <capsule/capsule.h>
#include <emmintrin.h>
#include <stdint.h>
#include <string.h>

double rsqrt(double x) {
  double y = x;
  // O2-DAG: float-bits-as-integer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'rsqrt': floating-point value reinterpreted as bits
  int64_t i = *(int64_t *)&y;
  // O0-DAG: float-bits-as-integer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'rsqrt': floating-point data read as integer bits
  i = 0x5fe6eb50c7b537a9 - (i >> 1);
  y = *(double *)&i;
  return y * (1.5 - 0.5 * x * y * y);
}

double grad(double x) { return __capsule_autodiff((void *)rsqrt, x); }

double truncated(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  // O0-DAG: float-bits-as-integer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'truncated': floating-point data read as integer bits
  u &= ~0xfffULL;
  double a;
  memcpy(&a, &u, sizeof a);
  return a * x;
}

double grad_truncated(double x) {
  return __capsule_autodiff((void *)truncated, x);
}

// NOG: float-bits-as-integer.c:[[@LINE+1]]:8: error: capsule: cannot differentiate function 'stored_bits' (compile with -g to see the source line): integer operation
double stored_bits(double *x) {
  __m128i v = _mm_loadu_si128((const __m128i *)x);
  __m128i m = _mm_set1_epi64x(0x3fffffffffffffffLL);
  // O0-DAG: float-bits-as-integer.c:[[@LINE+2]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'stored_bits': integer operation on the bits of floating-point data stored into memory that has derivatives
  // O2-DAG: float-bits-as-integer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'stored_bits': integer operation on the bits of floating-point data stored into memory that has derivatives
  _mm_storeu_si128((__m128i *)(x + 2), _mm_and_si128(v, m));
  return x[2] * x[3] * x[3];
}

void grad_stored_bits(double *x, double *dx) {
  __capsule_autodiff((void *)stored_bits, x, dx);
}
