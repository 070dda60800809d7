//===- Polygamma.cpp - The polygamma functions for libm's derivatives -----===//
//
// The derivative of lgamma is digamma, of tgamma tgamma times digamma, and
// the derivative of polygamma of order n is polygamma of order n + 1; libm
// has none of them. Upward recurrence to where the asymptotic series
// converges to double precision, and reflection for negative arguments.
//===----------------------------------------------------------------------===//
#include "abi.h"

#include <math.h>

namespace {

/// B_2, B_4, ..., B_20.
constexpr double Bernoulli[] = {
    1.0 / 6,       -1.0 / 30, 1.0 / 42,      -1.0 / 30,     5.0 / 66,
    -691.0 / 2730, 7.0 / 6,   -3617.0 / 510, 43867.0 / 798, -174611.0 / 330};
constexpr int MaxOrder = 100;

double factorial(int N) {
  double F = 1;
  for (int K = 2; K <= N; ++K)
    F *= K;
  return F;
}

/// The asymptotic series for large x.
double polygammaAsymptotic(int N, double X) {
  double Sum = 0;
  // B_2k (2k + n - 1)! / ((2k)! x^(2k + n)), the factorial ratio built up
  // term by term from (n + 1)! / 2! (for n = 0 it is 1 / 2k).
  double Power = pow(X, N);
  double X2 = X * X;
  double Ratio = factorial(N + 1) / 2;
  for (int K = 1; K <= 10; ++K) {
    if (K > 1)
      Ratio *= (2.0 * K + N - 2) * (2.0 * K + N - 1) / ((2.0 * K - 1) * 2 * K);
    Power *= X2;
    Sum += Bernoulli[K - 1] * Ratio / Power;
  }
  if (N == 0)
    return log(X) - 0.5 / X - Sum;
  double Sign = N % 2 ? 1 : -1; // (-1)^(n + 1)
  return Sign * (factorial(N - 1) / pow(X, N) +
                 factorial(N) / (2 * pow(X, N + 1)) + Sum);
}

/// The n-th derivative of cot(pi x), divided by pi^n, as the polynomial
/// P_n(c) in c = cot(pi x): P_0 = c, P_(k+1) = -(1 + c^2) P_k'.
double cotDerivative(int N, double C) {
  double P[MaxOrder + 2] = {0, 1}; // coefficients of c^0, c^1, ...
  for (int K = 0; K < N; ++K) {
    double Next[MaxOrder + 2] = {0};
    for (int D = 1; D <= K + 1; ++D) { // P_k has degree k + 1
      double Slope = D * P[D];         // of c^(d - 1)
      Next[D - 1] -= Slope;
      Next[D + 1] -= Slope;
    }
    for (int D = 0; D <= K + 2; ++D)
      P[D] = Next[D];
  }
  double Value = 0;
  for (int D = N + 1; D >= 0; --D)
    Value = Value * C + P[D];
  return Value;
}

} // namespace

extern "C" double __capsule_polygamma(int N, double X) {
  if (N < 0 || N > MaxOrder || isnan(X) || (X <= 0 && X == floor(X)))
    return NAN;
  if (X < 0) {
    // psi^(n)(x) = (-1)^n psi^(n)(1 - x) - pi^(n+1) d^n/dx^n cot(pi x) / pi^n.
    double Reflected = __capsule_polygamma(N, 1 - X);
    double C = 1 / tan(M_PI * X);
    return (N % 2 ? -Reflected : Reflected) -
           pow(M_PI, N + 1) * cotDerivative(N, C);
  }
  // psi^(n)(x) = psi^(n)(x + 1) - (-1)^n n! / x^(n + 1).
  double Shift = 0, NFactorial = factorial(N);
  double Sign = N % 2 ? -1 : 1;
  double Threshold = 20.0 + N;
  for (; X < Threshold; X += 1)
    Shift += Sign * NFactorial / pow(X, N + 1);
  return polygammaAsymptotic(N, X) - Shift;
}
