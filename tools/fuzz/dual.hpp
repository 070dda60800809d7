//===- dual.hpp - Vector dual numbers: the fuzzer's derivative oracle -----===//
//
// capsule-fuzz compiles each generated program twice: with Capsule, where
// `real` is double, and with this header, where `real` is a dual number that
// carries the value and its derivatives along kWidth input directions. The
// dual build runs the same source once with plain C++ (no Capsule), so its
// derivatives are exact up to rounding and independent of the pass: forward
// mode by operator overloading against Capsule's reverse mode by source
// transformation. Control flow is decided on values alone, as in the
// primal, so a branch or an integer conversion gives the derivative of the
// path taken, which is what Capsule must give too; finite differences would
// disagree with both near a branch.
//
// Each function is written once, by value, so that C code taking the address
// of sin or tanh for a `real (*)(real)` table gets the dual overload.
//
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_FUZZ_DUAL_HPP
#define CAPSULE_FUZZ_DUAL_HPP

#include <cmath>

namespace fuzz {
constexpr int kWidth = 16;

struct Dual {
  double v;
  double d[kWidth];
  Dual(double value = 0.0) : v(value) {
    for (double &e : d)
      e = 0.0;
  }
  static Dual seeded(double value, int direction) {
    Dual r(value);
    r.d[direction] = 1.0;
    return r;
  }
};

// r = value with derivative scale * a's derivative.
inline Dual chain(const Dual &a, double value, double scale) {
  Dual r(value);
  for (int i = 0; i < kWidth; ++i)
    r.d[i] = scale * a.d[i];
  return r;
}

inline Dual chain2(const Dual &a, const Dual &b, double value, double sa,
                   double sb) {
  Dual r(value);
  for (int i = 0; i < kWidth; ++i)
    r.d[i] = sa * a.d[i] + sb * b.d[i];
  return r;
}

inline double value(const Dual &a) { return a.v; }
inline double value(double a) { return a; }
} // namespace fuzz

using fuzz::Dual;

inline Dual operator+(Dual a, Dual b) {
  return fuzz::chain2(a, b, a.v + b.v, 1.0, 1.0);
}
inline Dual operator-(Dual a, Dual b) {
  return fuzz::chain2(a, b, a.v - b.v, 1.0, -1.0);
}
inline Dual operator*(Dual a, Dual b) {
  return fuzz::chain2(a, b, a.v * b.v, b.v, a.v);
}
inline Dual operator/(Dual a, Dual b) {
  double q = a.v / b.v;
  return fuzz::chain2(a, b, q, 1.0 / b.v, -q / b.v);
}
inline Dual operator-(Dual a) { return fuzz::chain(a, -a.v, -1.0); }
inline Dual operator+(Dual a) { return a; }
inline Dual &operator+=(Dual &a, Dual b) { return a = a + b; }
inline Dual &operator-=(Dual &a, Dual b) { return a = a - b; }
inline Dual &operator*=(Dual &a, Dual b) { return a = a * b; }
inline Dual &operator/=(Dual &a, Dual b) { return a = a / b; }
inline bool operator<(Dual a, Dual b) { return a.v < b.v; }
inline bool operator>(Dual a, Dual b) { return a.v > b.v; }
inline bool operator<=(Dual a, Dual b) { return a.v <= b.v; }
inline bool operator>=(Dual a, Dual b) { return a.v >= b.v; }
inline bool operator==(Dual a, Dual b) { return a.v == b.v; }
inline bool operator!=(Dual a, Dual b) { return a.v != b.v; }

// FUZZ_BROKEN_ORACLE gives sin a wrong derivative, so that a test can see
// the fuzzer catch and reduce a wrong gradient (test/tools).
#ifdef FUZZ_BROKEN_ORACLE
inline Dual sin(Dual a) {
  return fuzz::chain(a, std::sin(a.v), 1.5 * std::cos(a.v));
}
#else
inline Dual sin(Dual a) { return fuzz::chain(a, std::sin(a.v), std::cos(a.v)); }
#endif
inline Dual cos(Dual a) {
  return fuzz::chain(a, std::cos(a.v), -std::sin(a.v));
}
inline Dual tanh(Dual a) {
  double t = std::tanh(a.v);
  return fuzz::chain(a, t, 1.0 - t * t);
}
inline Dual atan(Dual a) {
  return fuzz::chain(a, std::atan(a.v), 1.0 / (1.0 + a.v * a.v));
}
inline Dual exp(Dual a) {
  double e = std::exp(a.v);
  return fuzz::chain(a, e, e);
}
inline Dual log(Dual a) { return fuzz::chain(a, std::log(a.v), 1.0 / a.v); }
inline Dual sqrt(Dual a) {
  double s = std::sqrt(a.v);
  return fuzz::chain(a, s, 0.5 / s);
}
inline Dual cbrt(Dual a) {
  double c = std::cbrt(a.v);
  return fuzz::chain(a, c, 1.0 / (3.0 * c * c));
}
inline Dual fabs(Dual a) {
  return fuzz::chain(a, std::fabs(a.v), a.v < 0.0 ? -1.0 : 1.0);
}
inline Dual floor(Dual a) { return Dual(std::floor(a.v)); }
inline Dual pow(Dual a, double e) {
  return fuzz::chain(a, std::pow(a.v, e), e * std::pow(a.v, e - 1.0));
}
inline Dual fmin(Dual a, Dual b) { return b.v < a.v ? b : a; }
inline Dual fmax(Dual a, Dual b) { return b.v > a.v ? b : a; }
inline Dual hypot(Dual a, Dual b) {
  double h = std::hypot(a.v, b.v);
  return fuzz::chain2(a, b, h, a.v / h, b.v / h);
}
inline Dual atan2(Dual y, Dual x) {
  double r2 = x.v * x.v + y.v * y.v;
  return fuzz::chain2(y, x, std::atan2(y.v, x.v), x.v / r2, -y.v / r2);
}

#endif // CAPSULE_FUZZ_DUAL_HPP
