// Custom rules of functions that return pointers (Enzyme's convention,
// ../shared/enzyme-conventions.md): the augmented forward rule returns
// {result, shadow of the result} or {tape, result, shadow}, the tangent rule
// {result, shadow of the result}, and derivatives then flow through the
// returned pointer as through any other: reads and writes through it, in a
// stack array and in a heap block, the function called directly and
// through a pointer. The functions live in a library built
// without Capsule (-DLIBRARY), as a precompiled library's would, so only the
// rules can give their derivatives (a rule that returned the wrong shadow
// shows: the gradient through the pointer goes elsewhere). Gradients,
// tangents, forward over reverse and reverse over reverse (Hessian-vector
// products, the rules' own code differentiated) against central differences
// of the primal, which runs the library.
// RUN: %clang -O2 -DLIBRARY -c %s -o %t.lib.o
// RUN: %clang -O0 -g %capsule_cflags %s %t.lib.o -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s %t.lib.o -o %t2 %capsule_ldflags -lm && %t2
#include <stdlib.h>
#include <string.h>

/* The largest of v[0..n) (the first of equal ones). */
double *largest(double *v, long n);
/* out[i] = k x[i] for i < n; returns where the last one went. */
double *scale_into(const double *x, double *out, double k, long n);

#ifdef LIBRARY
double *largest(double *v, long n) {
  long m = 0;
  for (long i = 1; i < n; ++i)
    if (v[i] > v[m])
      m = i;
  return v + m;
}

double *scale_into(const double *x, double *out, double k, long n) {
  for (long i = 0; i < n; ++i)
    out[i] = k * x[i];
  return out + n - 1;
}
#else
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"

/* Capsule's spelling; a tape-less rule: {result, shadow}. */
typedef struct {
  double *result, *shadow;
} with_shadow;
static with_shadow largest_aug(double *v, double *dv, long n, long dn) {
  double *p = largest(v, n);
  return (with_shadow){p, dv + (p - v)};
}
static void largest_grad(double *v, double *dv, long n, long dn) {}
CAPSULE_GRADIENT(largest, largest_aug, largest_grad);
/* The tangent rule takes the same arguments (n's tangent for its shadow)
 * and returns the same. */
CAPSULE_DERIVATIVE(largest, largest_aug);

/* Enzyme's spelling; a taped rule: {tape, result, shadow}. The caller
 * overwrites x afterwards, so the gradient rule reads it from the tape. */
typedef struct {
  void *tape;
  double *result, *shadow;
} taped_with_shadow;
static taped_with_shadow scale_aug(const double *x, const double *dx,
                                   double *out, double *dout, double k, long n,
                                   long dn) {
  double *kept = malloc(n * sizeof *kept);
  memcpy(kept, x, n * sizeof *kept);
  double *last = scale_into(x, out, k, n);
  return (taped_with_shadow){kept, last, dout + (last - out)};
}
static double scale_grad(const double *x, double *dx, double *out,
                         double *dout, double k, long n, long dn, void *tape) {
  const double *kept = tape;
  double dk = 0;
  for (long i = 0; i < n; ++i) {
    dk += kept[i] * dout[i];
    dx[i] += k * dout[i];
    dout[i] = 0;
  }
  free(tape);
  return dk;
}
static with_shadow scale_tangent(const double *x, const double *dx,
                                 double *out, double *dout, double k, double dk,
                                 long n, long dn) {
  double *last = scale_into(x, out, k, n);
  for (long i = 0; i < n; ++i)
    dout[i] = dk * x[i] + k * dx[i];
  return (with_shadow){last, dout + (last - out)};
}
void *__enzyme_register_gradient_scale_into[3] = {
    (void *)scale_into, (void *)scale_aug, (void *)scale_grad};
void *__enzyme_register_derivative_scale_into[2] = {(void *)scale_into,
                                                    (void *)scale_tangent};

enum { N = 5 };

/* Through pointers the library returns into a stack array. */
static double on_stack(double *x) {
  double w[N], out[N];
  for (int i = 0; i < N; ++i)
    w[i] = sin(x[i]) + 0.1 * i;
  double *top = largest(w, N);
  double t = *top * x[0];
  *top = *top * *top; /* written through the pointer */
  double *last = scale_into(w, out, x[1], N);
  for (int i = 0; i < N; ++i)
    w[i] = -1; /* the rule's tape keeps what it needs */
  *last += t;
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += out[i] * out[i] * (i + 1);
  return s + cos(*last);
}
CHECK_FD_OF(on_stack)

/* The same into a heap block, the pointer kept and used after a loop. */
static double on_heap(double *x) {
  double *w = malloc(2 * N * sizeof *w);
  for (int i = 0; i < N; ++i)
    w[i] = x[i] * x[(i + 1) % N];
  double *last = scale_into(w, w + N, x[2], N);
  double *top = largest(w + N, N);
  double s = 0;
  for (int i = 0; i < 2 * N; ++i)
    s += w[i] * (i % 3 + 1);
  s += *top * *last;
  free(w);
  return s;
}
CHECK_FD_OF(on_heap)

/* Called through a pointer, among functions without rules, three times:
 * the rule's records come back last in, first out. */
static double *first(double *v, long n) { return v; }
static double *(*volatile pick)(double *, long) = first;
static double indirect(double *x) {
  double w[N];
  for (int i = 0; i < N; ++i)
    w[i] = sin(x[i]) + 0.1 * i;
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    double *p = pick(w, N);
    s += *p * x[k];
    *p *= 0.5;
  }
  return s;
}
CHECK_FD_OF(indirect)

static void on_stack_gradient(double *x, double *dx) {
  __capsule_autodiff((void *)on_stack, capsule_dup, x, dx);
}

/* The gradient's slope along (1, 2, ..., N), for reverse over reverse. */
static double on_stack_slope(double *x) {
  double dx[N] = {0}, s = 0;
  on_stack_gradient(x, dx);
  for (int i = 0; i < N; ++i)
    s += dx[i] * (i + 1);
  return s;
}
CHECK_FD_OF(on_stack_slope)

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5, -0.2};
  CHECK_GRADIENT_AND_TANGENTS(on_stack, x, N);
  CHECK_GRADIENT_AND_TANGENTS(on_heap, x, N);
  CHECK_GRADIENT_AND_TANGENTS(indirect, x, N);
  pick = largest;
  CHECK_GRADIENT_AND_TANGENTS(indirect, x, N);

  /* Hessian-vector product: forward mode over the gradient, each column
   * against central differences of the gradient. */
  for (int j = 0; j < N; ++j) {
    double v[N] = {0}, g[N] = {0}, hv[N] = {0}, gp[N] = {0}, gm[N] = {0};
    double xp[N], xm[N], h = CHECK_FD_STEP;
    v[j] = 1;
    __capsule_fwddiff((void *)on_stack_gradient, capsule_dup, x, v,
                      capsule_dup, g, hv);
    memcpy(xp, x, sizeof x);
    memcpy(xm, x, sizeof x);
    xp[j] += h;
    xm[j] -= h;
    on_stack_gradient(xp, gp);
    on_stack_gradient(xm, gm);
    for (int i = 0; i < N; ++i)
      check_close("Hessian-vector product", hv[i], (gp[i] - gm[i]) / (2 * h),
                  1e-5, 1e-7);
  }
  /* Reverse over reverse: the Hessian times (1, 2, ..., N). */
  double hw[N] = {0};
  __capsule_autodiff((void *)on_stack_slope, capsule_dup, x, hw);
  check_grad_fd("reverse over reverse", hw, on_stack_slope_fd, 0, x, N);
  return check_report();
}
#endif
