// Structs passed by value to the differentiated function itself (byval in
// memory: too big for registers), const and dup, one with a pointer field
// whose shadow the struct's shadow holds, one the function writes to (its
// own copy: the caller's struct must not change). Checked against finite
// differences; the checkpointed builds against the plain one, and an
// interrupted run of the same function against a direct call.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <string.h>

#include "include/check.h"

enum { N = 6 };

typedef struct {
  double c[5];
  long n;
} Coeffs;

typedef struct {
  double *w; // weights, active through the struct's shadow
  double scale;
  double pad[3];
} Weights;

// The copy is scaled in place: byval makes it f's own. Not inlined, so
// that g (below) has calls to be interrupted at.
__attribute__((noinline)) double f(Coeffs k, Weights w, const double *x) {
  double s = 0;
  for (long i = 0; i < k.n; i++) {
    k.c[i % 5] *= 1.0 + 0.1 * x[i];
    s += k.c[i % 5] * w.w[i] * sin(x[i]) * w.scale;
  }
  return s + k.c[0] * k.c[4];
}

// Passes its copies on by value: f gets copies of g's copies.
double g(Coeffs k, Weights w, const double *x) {
  double s = 0;
  for (int r = 0; r < 3; r++) {
    s += f(k, w, x);
    k.c[r] += 0.5;
  }
  return s;
}

static Coeffs k0 = {{0.5, -1.25, 2.0, 0.75, 1.5}, N};
static double w0[N] = {1.0, 0.5, -0.25, 2.0, 1.5, -1.0};
static const double xs[N] = {0.3, -0.7, 1.1, 0.4, -0.2, 0.9};

static double f_of_x(double *x, void *ctx) {
  (void)ctx;
  Weights w = {w0, 1.5, {0, 0, 0}};
  return f(k0, w, x);
}

static double f_of_c(double *c, void *ctx) {
  (void)ctx;
  Coeffs k = k0;
  memcpy(k.c, c, sizeof k.c);
  Weights w = {w0, 1.5, {0, 0, 0}};
  return f(k, w, xs);
}

static double f_of_w(double *ws, void *ctx) {
  (void)ctx;
  double scale = ws[N];
  Weights w = {ws, scale, {0, 0, 0}};
  return f(k0, w, xs);
}

int main(void) {
  double x[N], dx[N] = {0}, fd[N + 1];
  memcpy(x, xs, sizeof x);

  // Const structs; x active.
  Weights w = {w0, 1.5, {0, 0, 0}};
  __capsule_autodiff((void *)f, capsule_const, k0, capsule_const, w,
                     capsule_dup, x, dx);
  check_fd_grad(f_of_x, NULL, x, N, fd);
  for (int i = 0; i < N; i++)
    check_close("df/dx (const structs)", dx[i], fd[i], CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  check_cf("the caller's struct is unchanged", k0.c[1], -1.25);

  // Dup structs: the coefficients' adjoints land in dk, the weights' in dw0
  // through dw.w, the scale's in dw.scale.
  Coeffs dk;
  memset(&dk, 0, sizeof dk);
  double dw0[N] = {0};
  Weights dw = {dw0, 0, {0, 0, 0}};
  memset(dx, 0, sizeof dx);
  __capsule_autodiff((void *)f, capsule_dup, k0, dk, capsule_dup, w, dw,
                     capsule_dup, x, dx);
  double c[5];
  memcpy(c, k0.c, sizeof c);
  check_fd_grad(f_of_c, NULL, c, 5, fd);
  for (int i = 0; i < 5; i++)
    check_close("df/dc", dk.c[i], fd[i], CHECK_FD_RTOL, CHECK_FD_ATOL);
  double ws[N + 1];
  memcpy(ws, w0, sizeof w0);
  ws[N] = 1.5;
  check_fd_grad(f_of_w, NULL, ws, N + 1, fd);
  for (int i = 0; i < N; i++)
    check_close("df/dw", dw0[i], fd[i], CHECK_FD_RTOL, CHECK_FD_ATOL);
  check_close("df/dscale", dw.scale, fd[N], CHECK_FD_RTOL, CHECK_FD_ATOL);
  check_fd_grad(f_of_x, NULL, x, N, fd);
  for (int i = 0; i < N; i++)
    check_close("df/dx (dup structs)", dx[i], fd[i], CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  check_cf("the caller's struct is still unchanged", k0.c[1], -1.25);

  // A run of g interrupted halfway (between two calls of f), resumed,
  // returns what a call returns.
  uint64_t steps = __capsule_primops((void *)g, k0, w, x);
  capsule_t *cap = __capsule_interrupt((void *)g, steps / 2, k0, w, x);
  double resumed = -1;
  if (cap) {
    capsule_resume(cap, &resumed);
    capsule_release(cap);
  }
  check_cf("interrupted and resumed", resumed, g(k0, w, x));
  check_cf("the caller's struct after the run", k0.c[1], -1.25);
  return check_report();
}
