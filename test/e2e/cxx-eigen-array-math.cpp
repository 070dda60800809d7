// Eigen's vectorized exp, log, pow, rsqrt of double arrays and sin, cos,
// tanh, exp, log, log1p, expm1 of float arrays, as a softmax cross-entropy,
// a log-sum-exp and a power law use them: Eigen computes them a packet at a
// time with polynomials whose range reduction takes the exponent apart with
// integer operations on the bits (Eigen::internal::pexp<Packet2d> and kin),
// which were refused ("floating-point value reinterpreted as bits", or a
// call of llvm.x86.sse2.cvtpd2dq without a derivative). In the
// differentiated code they are the libm function on each lane now
// (Support/EigenPacketMath.h). Reverse and forward mode against central
// differences (double) or closed forms (float, float tolerances), and a
// checkpointed gradient of a loop of them against the plain one, with SSE2
// and with AVX2 at -O0 to -O3.
// RUN: %clangxx -O0 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 %capsule_cflags -I/usr/include/eigen3 %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O3 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t3 %capsule_ldflags && %t3
// RUN: %if avx2-fma %{ %clangxx -O2 -mavx2 -mfma %capsule_cflags -I/usr/include/eigen3 %s -o %t2a %capsule_ldflags && %t2a %}
#include <Eigen/Dense>
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

using namespace Eigen;

// Softmax cross-entropy of logits W x (3 classes, 5 features), class 1.
static double crossEntropy(double *x) {
  Map<const Matrix<double, 3, 5, RowMajor>> W(x);
  Map<const Vector<double, 5>> f(x + 15);
  ArrayXd z = (W * f).array();
  double m = z.maxCoeff();
  return std::log((z - m).exp().sum()) + m - z(1);
}
CHECK_FD_OF(crossEntropy)

static double logsAndPowers(double *x) {
  Map<const ArrayXd> a(x, 11), b(x + 11, 11);
  ArrayXd p = a.pow(b) + a.pow(2.5) + a.rsqrt();
  return (p * a.log()).sum() + (0.1 * b).exp().prod();
}
CHECK_FD_OF(logsAndPowers)

// Float arrays: the sum of sin(a) + cos(a)/2 + tanh(a) + exp(a)/4 + log(a)
// + log1p(a) + expm1(a)/3, whose partials are the closed form below.
static double floats(double *x) {
  ArrayXf a = Map<const ArrayXd>(x, 13).cast<float>();
  ArrayXf s = a.sin() + 0.5f * a.cos() + a.tanh() + 0.25f * a.exp() +
              a.log() + a.log1p() + a.expm1() / 3.0f;
  return s.sum();
}
static double floatsPartial(double *x, int i) {
  double a = x[i], t = std::tanh(a);
  return std::cos(a) - 0.5 * std::sin(a) + 1 - t * t + 0.25 * std::exp(a) +
         1 / a + 1 / (1 + a) + std::exp(a) / 3;
}

// A decay law integrated in steps: a loop of vectorized exp and log the
// checkpointed gradient cuts into parts.
static double decay(double *x, int steps) {
  ArrayXd u = Map<const ArrayXd>(x, 6);
  ArrayXd k = Map<const ArrayXd>(x + 6, 6).abs() + 0.5;
  for (int s = 0; s < steps; ++s)
    u += 1e-3 * (-k * u + (1.0 + u * u).log() - (-u).exp() * 0.1);
  return u.square().sum();
}

int main() {
  double x[64];
  for (int i = 0; i < 64; ++i)
    x[i] = 0.4 + 0.3 * std::fabs(std::sin(1.0 + 0.7 * i));
  CHECK_GRADIENT_AND_TANGENTS(crossEntropy, x, 20);
  CHECK_GRADIENT_AND_TANGENTS(logsAndPowers, x, 22);
  CHECK_GRADIENT_AND_TANGENTS_CF(floats, x, 13, floatsPartial,
                                 CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  int sampled[] = {0, 5, 6, 11};
  CHECK_CHECKPOINTED_GRADIENT(decay, x, 12, sampled, 4, 3000);
  return check_report();
}
