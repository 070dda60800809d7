// Constant data that holds pointers, and std::function at -O0, in reverse
// and forward mode.
//
// - A const std::vector<std::vector<double>> (rows of a data set) and a
//   const std::function built outside the differentiated code, capturing a
//   local by reference, passed capsule_const. At -O0 the shared derivatives
//   of the library's members are called with the sink as the shadow of the
//   const object (memory without adjoints), and the pointers loaded out of
//   it (a row's buffer, the captured reference) came back with null
//   shadows: the reverse sweep, or the tangent code, wrote through them and
//   the program crashed (both modes). They now get their places in the
//   sink as well.
// - A std::function built inside the differentiated code from a lambda
//   capturing an active value by value, copied, and called through a
//   helper: at -O0 the library clones the functor with a memcpy out of
//   untyped storage; the debug type of the functor's parameter now tells
//   what the copy moves (was refused: "cannot tell whether this copy moves
//   floating-point data"). Without -g it stays a clear refusal.
// Checked against central differences; -O0 and -O2, and checkpointed.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: not %clangxx -O0 %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: error: capsule: cannot differentiate function {{.*}}_M_create{{.*}}: cannot tell whether this copy moves floating-point data
#include <capsule/capsule.h>
#include <cmath>
#include <functional>
#include <vector>

#include "include/check.h"

using Fn = std::function<double(double)>;
using Rows = std::vector<std::vector<double>>;

// A least-squares loss over rows of (input, input, target).
static double loss(const double *w, const Rows &rows) {
  double sum = 0;
  for (const std::vector<double> &row : rows) {
    double r = w[0] * row[0] + w[1] * std::sin(row[1]) - row[2];
    sum += r * r;
  }
  return sum;
}

// A kernel built by the caller, capturing its bandwidth by reference.
static double smoothed(const Fn *kernel, const double *x) {
  return (*kernel)(x[0]) * x[1] + (*kernel)(x[1]);
}

static double weighted(const Fn &f, double t) { return 2 * f(t) + t; }

// Built inside: the lambda captures an active value; its copy is applied.
static double builtInside(const double *x) {
  double scale = x[1];
  Fn f = [scale](double t) { return scale * std::sin(t); };
  Fn copy = f;
  Fn byReference = [&f](double t) { return f(t) * t; };
  return weighted(copy, x[0]) + byReference(x[0] * x[1]);
}

static const Rows *theRows;
static const Fn *theKernel;
static double lossFd(double *x, void *) { return loss(x, *theRows); }
static double smoothedFd(double *x, void *) { return smoothed(theKernel, x); }
static double builtInsideFd(double *x, void *) { return builtInside(x); }

int main() {
  Rows rows = {{1.0, 0.5, 2.0}, {-0.5, 1.5, 0.25}, {2.0, -1.0, 1.0}};
  double bandwidth = 1.5;
  Fn kernel = [&bandwidth](double t) { return std::exp(-bandwidth * t * t); };
  theRows = &rows;
  theKernel = &kernel;
  const double v[2] = {0.6, -0.8};

  double w[2] = {0.7, -0.3}, dw[2] = {0, 0};
  __capsule_autodiff<void>((void *)loss, capsule_dup, w, dw, capsule_const,
                           &rows);
  check_grad_fd("rows: gradient", dw, lossFd, nullptr, w, 2);
  double tw = __capsule_fwddiff<double>((void *)loss, capsule_dup, w, v,
                                        capsule_const, &rows);
  check_close("rows: tangent", tw,
              check_fd_along(lossFd, nullptr, w, v, 2), CHECK_FD_RTOL,
              CHECK_FD_ATOL);

  double x[2] = {0.4, 0.9}, dx[2] = {0, 0};
  __capsule_autodiff<void>((void *)smoothed, capsule_const, &kernel,
                           capsule_dup, x, dx);
  check_grad_fd("kernel: gradient", dx, smoothedFd, nullptr, x, 2);
  double tx = __capsule_fwddiff<double>((void *)smoothed, capsule_const,
                                        &kernel, capsule_dup, x, v);
  check_close("kernel: tangent", tx,
              check_fd_along(smoothedFd, nullptr, x, v, 2), CHECK_FD_RTOL,
              CHECK_FD_ATOL);

  double y[2] = {0.3, 1.2}, dy[2] = {0, 0};
  __capsule_autodiff<void>((void *)builtInside, capsule_dup, y, dy);
  check_grad_fd("built inside: gradient", dy, builtInsideFd, nullptr, y, 2);
  double ty =
      __capsule_fwddiff<double>((void *)builtInside, capsule_dup, y, v);
  check_close("built inside: tangent", ty,
              check_fd_along(builtInsideFd, nullptr, y, v, 2), CHECK_FD_RTOL,
              CHECK_FD_ATOL);
  return check_report();
}
