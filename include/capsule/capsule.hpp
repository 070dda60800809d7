//===- capsule.hpp - Derivatives of C++ callables ---------------*- C++ -*-===//
//
// An idiomatic C++ layer over the markers of capsule.h: gradient, jvp, hvp,
// jacobian and hessian of callables (lambdas, function objects, functions)
// over std::span<double>. Needs C++20 (std::span), and the Capsule plugin
// like any marker.
//
//   double f(std::span<const double> x);                  // scalar functions
//   void   g(std::span<const double> x, std::span<double> y);  // vector ones
//
// The callable itself is constant data to the derivative: what it captures
// takes no derivative (capture parameters, pass variables). Sizes that do
// not match, and outputs that overlap inputs, throw std::invalid_argument
// before anything is computed (with -fno-exceptions: print why and abort).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_CAPSULE_HPP
#define CAPSULE_CAPSULE_HPP

#if __cplusplus < 202002L
#error "capsule/capsule.hpp needs C++20 (std::span): compile with -std=c++20"
#else // the rest would only add errors to the one above

#include <capsule/capsule.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace capsule {
namespace detail {

// What the markers differentiate: plain functions of pointers, one
// instantiation per callable type, defined in the user's translation unit.
// The callable travels as `const void *`: a marker's template arguments
// cannot name a lambda's type, which has no linkage. A function travels as
// a pointer to it (Stored).
template <class F> using Stored = std::decay_t<F>;

template <class F>
double scalar(const void *f, const double *x, std::size_t n) {
  return (*static_cast<const F *>(f))(std::span<const double>(x, n));
}

template <class F>
void vector(const void *f, const double *x, std::size_t n, double *y,
            std::size_t m) {
  (*static_cast<const F *>(f))(std::span<const double>(x, n),
                               std::span<double>(y, m));
}

// grad += ∇f(x) by reverse mode: differentiated again by hvp (forward over
// reverse, which differentiates callables that allocate, such as ones with a
// std::vector inside).
template <class F>
void gradientInto(const void *f, const double *x, double *grad, std::size_t n) {
  __capsule_autodiff<void>((void *)&scalar<F>, capsule_const, f, capsule_dup, x,
                           grad, capsule_const, n);
}

[[noreturn]] inline void invalidArgument(const char *What) {
#if defined(__cpp_exceptions)
  throw std::invalid_argument(What);
#else
  std::fprintf(stderr, "capsule: invalid argument: %s\n", What);
  std::abort();
#endif
}

inline void requireSize(std::size_t Got, std::size_t Want, const char *What) {
  if (Got != Want)
    invalidArgument(What);
}

// An output that overlaps an input would be zeroed or overwritten while the
// derivative still reads it.
inline void requireDisjoint(std::span<const double> Out,
                            std::span<const double> In, const char *What) {
  const double *OutEnd = Out.data() + Out.size(),
               *InEnd = In.data() + In.size();
  if (!Out.empty() && !In.empty() && Out.data() < InEnd && In.data() < OutEnd)
    invalidArgument(What);
}

} // namespace detail

/// grad = ∇f(x), overwritten.
template <class F>
void gradient(const F &f, std::span<const double> x, std::span<double> grad) {
  detail::requireSize(grad.size(), x.size(),
                      "capsule::gradient: grad and x differ in size");
  detail::requireDisjoint(grad, x, "capsule::gradient: grad overlaps x");
  const detail::Stored<F> &Fn = f;
  std::fill(grad.begin(), grad.end(), 0.0);
  detail::gradientInto<detail::Stored<F>>(static_cast<const void *>(&Fn),
                                          x.data(), grad.data(), x.size());
}

/// f'(x)·v, the derivative of a scalar f along v, in one run of f.
template <class F>
double jvp(const F &f, std::span<const double> x, std::span<const double> v) {
  detail::requireSize(v.size(), x.size(),
                      "capsule::jvp: v and x differ in size");
  const detail::Stored<F> &Fn = f;
  return __capsule_fwddiff<double>((void *)&detail::scalar<detail::Stored<F>>,
                                   capsule_const,
                                   static_cast<const void *>(&Fn), capsule_dup,
                                   x.data(), v.data(), capsule_const, x.size());
}

/// y = f(x) and dy = J(x)·v for a vector f writing y, in one run of f.
template <class F>
void jvp(const F &f, std::span<const double> x, std::span<const double> v,
         std::span<double> y, std::span<double> dy) {
  detail::requireSize(v.size(), x.size(),
                      "capsule::jvp: v and x differ in size");
  detail::requireSize(dy.size(), y.size(),
                      "capsule::jvp: dy and y differ in size");
  for (std::span<const double> In : {x, v})
    for (std::span<const double> Out :
         {std::span<const double>(y), std::span<const double>(dy)})
      detail::requireDisjoint(Out, In, "capsule::jvp: y or dy overlaps x or v");
  detail::requireDisjoint(y, dy, "capsule::jvp: y overlaps dy");
  const detail::Stored<F> &Fn = f;
  __capsule_fwddiff<void>((void *)&detail::vector<detail::Stored<F>>,
                          capsule_const, static_cast<const void *>(&Fn),
                          capsule_dup, x.data(), v.data(), capsule_const,
                          x.size(), capsule_dup, y.data(), dy.data(),
                          capsule_const, y.size());
}

/// hv = H(x)·v, the Hessian of a scalar f times v: forward mode over
/// reverse mode, at a few times the cost of a gradient.
template <class F>
void hvp(const F &f, std::span<const double> x, std::span<const double> v,
         std::span<double> hv) {
  detail::requireSize(v.size(), x.size(),
                      "capsule::hvp: v and x differ in size");
  detail::requireSize(hv.size(), x.size(),
                      "capsule::hvp: hv and x differ in size");
  detail::requireDisjoint(hv, x, "capsule::hvp: hv overlaps x");
  detail::requireDisjoint(hv, v, "capsule::hvp: hv overlaps v");
  const detail::Stored<F> &Fn = f;
  std::vector<double> Grad(x.size(), 0.0);
  std::fill(hv.begin(), hv.end(), 0.0);
  __capsule_fwddiff<void>((void *)&detail::gradientInto<detail::Stored<F>>,
                          capsule_const, static_cast<const void *>(&Fn),
                          capsule_dup, x.data(), v.data(), capsule_dup,
                          Grad.data(), hv.data(), capsule_const, x.size());
}

/// y = f(x) and its Jacobian, m × n row-major (jac[i * n + j] = dy_i/dx_j):
/// eight columns per forward run (vector mode), the last few one by one.
template <class F>
void jacobian(const F &f, std::span<const double> x, std::span<double> y,
              std::span<double> jac) {
  const std::size_t N = x.size(), M = y.size();
  detail::requireSize(jac.size(), M * N,
                      "capsule::jacobian: jac is not y.size() * x.size()");
  detail::requireDisjoint(jac, x, "capsule::jacobian: jac overlaps x");
  detail::requireDisjoint(jac, y, "capsule::jacobian: jac overlaps y");
  constexpr std::size_t Lanes = 8;
  const detail::Stored<F> &Fn = f;
  // Lane k's direction and column, k * N and k * M doubles in.
  std::vector<double> Directions(Lanes * N, 0.0), Columns(Lanes * M);
  std::size_t J = 0;
  for (; J + Lanes <= N; J += Lanes) {
    for (std::size_t K = 0; K < Lanes; ++K)
      Directions[K * N + J + K] = 1.0;
    __capsule_fwddiff<void>(
        (void *)&detail::vector<detail::Stored<F>>, capsule_width, 8,
        capsule_const, static_cast<const void *>(&Fn), capsule_dupv,
        N * sizeof(double), x.data(), Directions.data(), capsule_const, N,
        capsule_dupv, M * sizeof(double), y.data(), Columns.data(),
        capsule_const, M);
    for (std::size_t K = 0; K < Lanes; ++K) {
      Directions[K * N + J + K] = 0.0;
      for (std::size_t I = 0; I < M; ++I)
        jac[I * N + J + K] = Columns[K * M + I];
    }
  }
  std::span<double> Direction(Directions.data(), N), Column(Columns.data(), M);
  for (; J < N; ++J) {
    Direction[J] = 1.0;
    jvp(f, x, Direction, y, Column);
    Direction[J] = 0.0;
    for (std::size_t I = 0; I < M; ++I)
      jac[I * N + J] = Column[I];
  }
}

/// The Hessian of a scalar f, n × n row-major, one hvp per column.
template <class F>
void hessian(const F &f, std::span<const double> x, std::span<double> hess) {
  const std::size_t N = x.size();
  detail::requireSize(hess.size(), N * N,
                      "capsule::hessian: hess is not x.size() squared");
  detail::requireDisjoint(hess, x, "capsule::hessian: hess overlaps x");
  std::vector<double> Direction(N, 0.0), Column(N);
  for (std::size_t J = 0; J < N; ++J) {
    Direction[J] = 1.0;
    hvp(f, x, Direction, Column);
    Direction[J] = 0.0;
    for (std::size_t I = 0; I < N; ++I)
      hess[I * N + J] = Column[I];
  }
}

} // namespace capsule

#endif // the language version
#endif // CAPSULE_CAPSULE_HPP
