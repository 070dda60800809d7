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
// With FUZZ_SECOND_ORDER the value and each derivative are themselves dual
// numbers along one more direction v: derivative i's derivative along v is
// (H v)_i, the oracle of the Hessian-vector products of nested calls.
//
// The rules are written once, as templates over the scalar type (double,
// or a dual number for the second order); `real`'s functions are plain
// functions, by value, so that C code taking the address of sin or tanh for
// a `real (*)(real)` table gets the dual overload.
//
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_FUZZ_DUAL_HPP
#define CAPSULE_FUZZ_DUAL_HPP

#include <cmath>

namespace fuzz {
constexpr int kWidth = 16;

template <class S, int W> struct DualT {
  S v;
  S d[W];
  DualT(double value = 0.0) : v(value) {
    for (S &e : d)
      e = S(0.0);
  }
  /// A constant of the scalar type (a dual number itself, for the second
  /// order).
  static DualT of(S value) {
    DualT r;
    r.v = value;
    return r;
  }
  static DualT seeded(S value, int direction) {
    DualT r = of(value);
    r.d[direction] = S(1.0);
    return r;
  }
};

inline double value(double a) { return a; }
template <class S, int W> double value(const DualT<S, W> &a) {
  return value(a.v);
}

// r = value with derivative scale * a's derivative.
template <class S, int W>
DualT<S, W> chain(const DualT<S, W> &a, S value, S scale) {
  DualT<S, W> r = DualT<S, W>::of(value);
  for (int i = 0; i < W; ++i)
    r.d[i] = scale * a.d[i];
  return r;
}

template <class S, int W>
DualT<S, W> chain2(const DualT<S, W> &a, const DualT<S, W> &b, S value, S sa,
                   S sb) {
  DualT<S, W> r = DualT<S, W>::of(value);
  for (int i = 0; i < W; ++i)
    r.d[i] = sa * a.d[i] + sb * b.d[i];
  return r;
}

template <class S, int W> using D = DualT<S, W>;

template <class S, int W> D<S, W> operator+(D<S, W> a, D<S, W> b) {
  return chain2(a, b, a.v + b.v, S(1.0), S(1.0));
}
template <class S, int W> D<S, W> operator-(D<S, W> a, D<S, W> b) {
  return chain2(a, b, a.v - b.v, S(1.0), S(-1.0));
}
template <class S, int W> D<S, W> operator*(D<S, W> a, D<S, W> b) {
  return chain2(a, b, a.v * b.v, b.v, a.v);
}
template <class S, int W> D<S, W> operator/(D<S, W> a, D<S, W> b) {
  S q = a.v / b.v;
  return chain2(a, b, q, S(1.0) / b.v, -q / b.v);
}
template <class S, int W> D<S, W> operator-(D<S, W> a) {
  return chain(a, -a.v, S(-1.0));
}
template <class S, int W> D<S, W> operator+(D<S, W> a) { return a; }

// Mixed with plain numbers (templates deduce no conversions).
#define FUZZ_MIXED(OP)                                                         \
  template <class S, int W> D<S, W> operator OP(D<S, W> a, double b) {         \
    return a OP D<S, W>(b);                                                    \
  }                                                                            \
  template <class S, int W> D<S, W> operator OP(double a, D<S, W> b) {         \
    return D<S, W>(a) OP b;                                                    \
  }                                                                            \
  template <class S, int W> D<S, W> &operator OP##=(D<S, W> &a, D<S, W> b) {   \
    return a = a OP b;                                                         \
  }                                                                            \
  template <class S, int W> D<S, W> &operator OP##=(D<S, W> &a, double b) {    \
    return a = a OP D<S, W>(b);                                                \
  }
FUZZ_MIXED(+)
FUZZ_MIXED(-)
FUZZ_MIXED(*)
FUZZ_MIXED(/)
#undef FUZZ_MIXED

#define FUZZ_COMPARE(OP)                                                       \
  template <class S, int W> bool operator OP(D<S, W> a, D<S, W> b) {           \
    return value(a) OP value(b);                                               \
  }                                                                            \
  template <class S, int W> bool operator OP(D<S, W> a, double b) {            \
    return value(a) OP b;                                                      \
  }                                                                            \
  template <class S, int W> bool operator OP(double a, D<S, W> b) {            \
    return a OP value(b);                                                      \
  }
FUZZ_COMPARE(<)
FUZZ_COMPARE(>)
FUZZ_COMPARE(<=)
FUZZ_COMPARE(>=)
FUZZ_COMPARE(==)
FUZZ_COMPARE(!=)
#undef FUZZ_COMPARE

// The elementary functions of one argument, as (C name, rule name).
#define FUZZ_UNARY(X)                                                          \
  X(sin, Sin)                                                                  \
  X(cos, Cos)                                                                  \
  X(tanh, Tanh)                                                                \
  X(atan, Atan)                                                                \
  X(exp, Exp)                                                                  \
  X(log, Log)                                                                  \
  X(sqrt, Sqrt)                                                                \
  X(cbrt, Cbrt)                                                                \
  X(fabs, Fabs)                                                                \
  X(floor, Floor)                                                              \
  X(asinh, Asinh)                                                              \
  X(atanh, Atanh)                                                              \
  X(erfc, Erfc)                                                                \
  X(exp10, Exp10)

// The elementary functions: on double the C library's, on dual numbers the
// chain rule over the scalar type's.
#define FUZZ_ON_DOUBLE(Lower, Upper)                                           \
  inline double Upper(double a) { return ::Lower(a); }
FUZZ_UNARY(FUZZ_ON_DOUBLE)
#undef FUZZ_ON_DOUBLE
inline double Pow(double a, double e) { return std::pow(a, e); }
inline double Hypot(double a, double b) { return std::hypot(a, b); }
inline double Atan2(double y, double x) { return std::atan2(y, x); }

// FUZZ_BROKEN_ORACLE gives sin a wrong derivative, so that a test can see
// the fuzzer catch and reduce a wrong gradient (test/tools).
#ifdef FUZZ_BROKEN_ORACLE
constexpr double kSinSlope = 1.5;
#else
constexpr double kSinSlope = 1.0;
#endif
template <class S, int W> D<S, W> Sin(D<S, W> a) {
  return chain(a, Sin(a.v), kSinSlope * Cos(a.v));
}
template <class S, int W> D<S, W> Cos(D<S, W> a) {
  return chain(a, Cos(a.v), -Sin(a.v));
}
template <class S, int W> D<S, W> Tanh(D<S, W> a) {
  S t = Tanh(a.v);
  return chain(a, t, 1.0 - t * t);
}
template <class S, int W> D<S, W> Atan(D<S, W> a) {
  return chain(a, Atan(a.v), 1.0 / (1.0 + a.v * a.v));
}
template <class S, int W> D<S, W> Exp(D<S, W> a) {
  S e = Exp(a.v);
  return chain(a, e, e);
}
template <class S, int W> D<S, W> Log(D<S, W> a) {
  return chain(a, Log(a.v), 1.0 / a.v);
}
template <class S, int W> D<S, W> Sqrt(D<S, W> a) {
  S s = Sqrt(a.v);
  return chain(a, s, 0.5 / s);
}
template <class S, int W> D<S, W> Cbrt(D<S, W> a) {
  S c = Cbrt(a.v);
  return chain(a, c, 1.0 / (3.0 * c * c));
}
template <class S, int W> D<S, W> Fabs(D<S, W> a) {
  return chain(a, Fabs(a.v), S(value(a) < 0.0 ? -1.0 : 1.0));
}
template <class S, int W> D<S, W> Floor(D<S, W> a) {
  return D<S, W>(Floor(value(a)));
}
template <class S, int W> D<S, W> Asinh(D<S, W> a) {
  return chain(a, Asinh(a.v), 1.0 / Sqrt(a.v * a.v + 1.0));
}
template <class S, int W> D<S, W> Atanh(D<S, W> a) {
  return chain(a, Atanh(a.v), 1.0 / (1.0 - a.v * a.v));
}
template <class S, int W> D<S, W> Erfc(D<S, W> a) {
  return chain(a, Erfc(a.v), -1.1283791670955126 * Exp(-(a.v * a.v)));
}
template <class S, int W> D<S, W> Exp10(D<S, W> a) {
  S e = Exp10(a.v);
  return chain(a, e, 2.302585092994046 * e);
}
template <class S, int W> D<S, W> Pow(D<S, W> a, double e) {
  return chain(a, Pow(a.v, e), e * Pow(a.v, e - 1.0));
}
template <class S, int W> D<S, W> Hypot(D<S, W> a, D<S, W> b) {
  S h = Hypot(a.v, b.v);
  return chain2(a, b, h, a.v / h, b.v / h);
}
template <class S, int W> D<S, W> Atan2(D<S, W> y, D<S, W> x) {
  S r2 = x.v * x.v + y.v * y.v;
  return chain2(y, x, Atan2(y.v, x.v), x.v / r2, -y.v / r2);
}
} // namespace fuzz

#ifdef FUZZ_SECOND_ORDER
typedef fuzz::DualT<fuzz::DualT<double, 1>, fuzz::kWidth> Dual;
#else
typedef fuzz::DualT<double, fuzz::kWidth> Dual;
#endif

#define FUZZ_ON_REAL(Lower, Upper)                                             \
  inline Dual Lower(Dual a) { return fuzz::Upper(a); }
FUZZ_UNARY(FUZZ_ON_REAL)
#undef FUZZ_ON_REAL
#undef FUZZ_UNARY
inline Dual pow(Dual a, double e) { return fuzz::Pow(a, e); }
inline Dual fmin(Dual a, Dual b) { return b < a ? b : a; }
inline Dual fmax(Dual a, Dual b) { return b > a ? b : a; }
inline Dual hypot(Dual a, Dual b) { return fuzz::Hypot(a, b); }
inline Dual atan2(Dual y, Dual x) { return fuzz::Atan2(y, x); }

#endif // CAPSULE_FUZZ_DUAL_HPP
