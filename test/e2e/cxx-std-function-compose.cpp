// std::function built from other std::functions (issue 15 item 1): h = [f,g](x){ return f(g(x)); } captured by value and by reference, a composition of compositions, a std::function wrapping a std::function, built outside the differentiated code and passed in, and built inside it capturing an active value; -O1 to -O3, plain and checkpointed, against central differences. libstdc++ keeps a small functor in a union (_Any_data, laid out by clang as {i64, i64}): taken as the union's layout, the copy of a captured double was an integer copy and its derivative was lost (0 at -O1 and above before the fix). At -O0 a functor built inside is copied by a memcpy out of untyped storage, which the debug type of the functor's parameter types (cxx-const-data-and-functions.cpp); but the composition built inside moves a std::function (the lambda holding f and g is moved into the heap), whose storage holds either a functor or a pointer to one, decided at run time: a clear refusal, as at -O1 and above when such a move is not inlined (errors/std-function-move.cpp).
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clangxx -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clangxx %s %t.ck1 -O1 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: not %clangxx -O0 -g %capsule_cflags -c %s -o %t0.o 2>&1 | FileCheck %s --check-prefix=O0
// O0: error: capsule: cannot differentiate function 'std::function<double (double)>::function(std::function<double (double)>&&)': cannot tell whether this copy moves floating-point data
#include "include/check.h"
#include <capsule/capsule.h>
#include <cmath>
#include <functional>

using Fn = std::function<double(double)>;

template <class F, class G> static Fn compose(F f, G g) {
  return [f, g](double t) { return f(g(t)); };
}

struct Fns {
  Fn byValue, byReference, nested, wrapped;
};

// Every composition applied to x[0], weighted by x[1]: the weight makes the
// second partial depend on each composition's value, the first on its
// derivative.
static double applyAll(const Fns &fns, double *x) {
  return x[1] * (fns.byValue(x[0]) + 2 * fns.byReference(x[0]) +
                 3 * fns.nested(x[0]) + 4 * fns.wrapped(x[0]));
}

// Built inside the differentiated code: the inner function captures an
// active value and the composition captures it by value, so the captured
// double is copied into the composition's storage.
static double composeInside(double *x) {
  double scale = x[1];
  Fn f = [scale](double t) { return scale * std::sin(t); };
  Fn g = [](double t) { return t * t + 0.5; };
  Fn h = [f, g](double t) { return f(g(t)); };
  return h(x[0]) * x[0];
}

static Fns *globalFns;
static double applyAllFd(double *x, void *) { return applyAll(*globalFns, x); }
static double composeInsideFd(double *x, void *) { return composeInside(x); }

int main() {
  double c = 0.3;
  Fn f = [c](double t) { return std::sin(c * t) + t; };
  Fn g = [](double t) { return std::exp(-t) * t; };
  Fns fns;
  fns.byValue = [f, g](double t) { return f(g(t)); };
  fns.byReference = [&f, &g](double t) { return g(f(t)); };
  fns.nested = compose(compose(f, g), fns.byReference);
  fns.wrapped = Fn(fns.byValue);
  globalFns = &fns;

  double x[2] = {0.7, 1.3}, dx[2] = {0, 0};
  __capsule_autodiff<void>((void *)applyAll, capsule_const, &fns, capsule_dup,
                           x, dx);
  check_grad_fd("compositions passed in", dx, applyAllFd, 0, x, 2);

  double y[2] = {0.4, 0.9}, dy[2] = {0, 0};
  __capsule_autodiff<void>((void *)composeInside, capsule_dup, y, dy);
  check_grad_fd("compositions built inside", dy, composeInsideFd, 0, y, 2);
  return check_report();
}
