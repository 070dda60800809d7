// Split mode, Enzyme's __enzyme_augmentfwd and __enzyme_reverse and
// Capsule's __capsule_augmentfwd and __capsule_reverse: the forward half
// returns the tape, the program runs code of its own (which here overwrites
// the inputs and outputs and computes other gradients), and the reverse
// half adds the adjoints. Checked against the combined gradient
// (__capsule_autodiff, verified against differences by the rest of the
// suite) and against central differences: a void function with dup
// pointers and a constant integer, a double result with an out argument
// (its adjoint returned, the result's adjoint given) and the primal result
// returned beside the tape, a pointer result with its shadow, memory the
// function allocates and frees, the tape in the program's memory
// (enzyme_allocated, __enzyme_augmentsize, enzyme_tape), halves
// interleaved (A, B forward; A, B reverse), the reverse half on another
// thread, a function whose state is in a global while another gradient
// leaves adjoints in that global's shadow between the halves, and the use
// split mode exists for: a custom rule whose augmented and gradient rules
// call it for a helper, inside an enclosing gradient; and the converse,
// split mode of code whose custom rules compute gradients in either half.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lpthread && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lpthread && %t2
#include <capsule/capsule.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include "check.h"

extern int enzyme_const, enzyme_dup, enzyme_tape, enzyme_allocated;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
int __enzyme_augmentsize(void *, ...);
typedef struct {
  void *tape;
  double result;
} tape_and_double;
tape_and_double __enzyme_augmentfwd_d(void *, ...);
double __enzyme_reverse_d(void *, ...);
typedef struct {
  void *tape;
  double *result, *shadow;
} tape_and_pointer;
tape_and_pointer __capsule_augmentfwd_p(void *, ...);
void __capsule_reverse_v(void *, ...);

#define N 4

/* y = F(x), n of each. */
static void mix(double *y, const double *x, int n) {
  double *scratch = malloc(sizeof(double) * n); /* freed inside: deferred */
  for (int i = 0; i < n; ++i)
    scratch[i] = sin(x[i]) * x[(i + 1) % n];
  for (int i = 0; i < n; ++i)
    y[i] = scratch[i] * scratch[(i + 2) % n] + exp(0.2 * x[i]);
  free(scratch);
}

/* A double result and an active scalar s. */
static double energy(const double *x, double s) {
  double e = 0;
  for (int i = 0; i < N; ++i)
    e += s * x[i] * x[i] * (i + 1) + sin(s * x[i]);
  return e;
}

/* Returns a pointer into its argument: the shadow comes back too. */
static double *scaled(double *x, double s) {
  for (int i = 0; i < N; ++i)
    x[i] *= s + i;
  return x + 1;
}

/* The weighted sum of mix's outputs, for the references. */
static const double weights[N] = {1, -2, 0.5, 3};
static double mix_sum(double *x, void *ctx) {
  double y[N], s = 0;
  mix(y, x, N);
  for (int i = 0; i < N; ++i)
    s += weights[i] * y[i];
  return s;
}
static double mix_sum_marker(double *x) { return mix_sum(x, 0); }

static void split_gradient(const double *p, double *dx) {
  double x[N], y[N], dy[N];
  for (int i = 0; i < N; ++i) {
    x[i] = p[i];
    dx[i] = 0;
    dy[i] = weights[i];
  }
  void *tape =
      __enzyme_augmentfwd((void *)mix, y, dy, x, dx, enzyme_const, N);
  for (int i = 0; i < N; ++i)
    x[i] = y[i] = -99; /* the program's own code between the halves */
  __enzyme_reverse((void *)mix, y, dy, x, dx, enzyme_const, N, tape);
}

static void *reverse_on_thread(void *args) {
  void **a = args;
  __enzyme_reverse((void *)mix, a[0], a[1], a[2], a[3], enzyme_const, N, a[4]);
  return 0;
}

/* The custom rule of `wrapped` calls split mode for `mix`. */
__attribute__((noinline)) void wrapped(double *y, const double *x) {
  mix(y, x, N);
}
void *wrapped_augment(double *y, double *dy, const double *x, double *dx) {
  return __enzyme_augmentfwd((void *)mix, y, dy, x, dx, enzyme_const, N);
}
void wrapped_gradient(double *y, double *dy, const double *x, double *dx,
                      void *tape) {
  __enzyme_reverse((void *)mix, y, dy, x, dx, enzyme_const, N, tape);
}
CAPSULE_GRADIENT(wrapped, wrapped_augment, wrapped_gradient);

static double through_rule(double *p) {
  double x[N], y[N], s = 0;
  for (int i = 0; i < N; ++i)
    x[i] = p[i];
  for (int k = 0; k < 3; ++k) {
    wrapped(y, x);
    for (int i = 0; i < N; ++i)
      x[i] = 0.5 * y[i] + 0.1 * k;
    s += x[0] * x[1] - x[2] * x[3];
  }
  return s;
}
static double through_helper(double *p) {
  double x[N], y[N], s = 0;
  for (int i = 0; i < N; ++i)
    x[i] = p[i];
  for (int k = 0; k < 3; ++k) {
    mix(y, x, N);
    for (int i = 0; i < N; ++i)
      x[i] = 0.5 * y[i] + 0.1 * k;
    s += x[0] * x[1] - x[2] * x[3];
  }
  return s;
}
static double through_helper_fd(double *x, void *ctx) {
  return through_helper(x);
}

/* State in a global, and a gradient that leaves an adjoint in its shadow. */
static double state[2];
static void through_global(double *y, const double *x) {
  state[0] = x[0] * x[1];
  state[1] = sin(x[2]) + x[3];
  *y = state[0] * state[1] + cos(state[0]);
}
static double through_global_fd(double *x, void *ctx) {
  double y;
  through_global(&y, x);
  return y;
}
static double through_global_marker(double *x) {
  return through_global_fd(x, 0);
}
static double reads_state(double *x) { return x[0] * state[0] * state[1]; }

/* Rules that compute gradients while a split call's half runs. */
static double leaf(double *x) { return sin(x[0]) * exp(x[1]); }
__attribute__((noinline)) double eager(double *x) { return leaf(x); }
tape_and_double eager_augment(double *x, double *dx) {
  double *g = calloc(2, sizeof(double));
  __capsule_autodiff((void *)leaf, x, g);
  tape_and_double r = {g, leaf(x)};
  return r;
}
void eager_gradient(double *x, double *dx, double d, void *tape) {
  double *g = tape;
  dx[0] += d * g[0];
  dx[1] += d * g[1];
  free(g);
}
CAPSULE_GRADIENT(eager, eager_augment, eager_gradient);
__attribute__((noinline)) double lazy(double *x) { return leaf(x); }
tape_and_double lazy_augment(double *x, double *dx) {
  double *kept = malloc(2 * sizeof(double));
  kept[0] = x[0];
  kept[1] = x[1];
  tape_and_double r = {kept, leaf(x)};
  return r;
}
void lazy_gradient(double *x, double *dx, double d, void *tape) {
  double g[2] = {0};
  __capsule_autodiff((void *)leaf, (double *)tape, g);
  free(tape);
  dx[0] += d * g[0];
  dx[1] += d * g[1];
}
CAPSULE_GRADIENT(lazy, lazy_augment, lazy_gradient);
#define RULED(name, first, second)                                             \
  static void name(double *y, const double *x) {                               \
    double a[2] = {x[0], x[1]};                                                \
    for (int k = 0; k < 3; ++k) {                                              \
      double e = first(a), l = second(a);                                      \
      a[0] = e * 0.5 + a[1];                                                   \
      a[1] = l * 0.3 - a[0] * 0.1;                                             \
    }                                                                          \
    *y = a[0] * a[1];                                                          \
  }
RULED(ruled, eager, lazy)
RULED(unruled, leaf, leaf)
static double unruled_fd(double *x, void *ctx) {
  double y;
  unruled(&y, x);
  return y;
}

static double energy_s_fd(double *x, void *ctx) {
  return energy(x, *(double *)ctx);
}

int main(void) {
  double p[N] = {0.4, -0.3, 0.8, 0.25}, want[N] = {0}, got[N];

  /* The combined gradient, the reference of every check below. */
  __capsule_autodiff((void *)mix_sum_marker, p, want);
  check_grad_fd("combined gradient", want, mix_sum, 0, p, N);
  split_gradient(p, got);
  check_grad_fd("split gradient", got, mix_sum, 0, p, N);

  /* Two calls, interleaved; the second reversed on another thread. */
  {
    double x1[N], y1[N], dx1[N] = {0}, dy1[N], x2[N], y2[N], dx2[N] = {0},
                                               dy2[N];
    for (int i = 0; i < N; ++i) {
      x1[i] = x2[i] = p[i];
      dy1[i] = dy2[i] = weights[i];
    }
    void *t1 = __enzyme_augmentfwd((void *)mix, y1, dy1, x1, dx1,
                                   enzyme_const, N);
    void *t2 = __capsule_augmentfwd((void *)mix, y2, dy2, x2, dx2,
                                    enzyme_const, N);
    double between[N] = {0};
    __capsule_autodiff((void *)mix_sum_marker, p, between);
    __enzyme_reverse((void *)mix, y1, dy1, x1, dx1, enzyme_const, N, t1);
    pthread_t thread;
    void *args[] = {y2, dy2, x2, dx2, t2};
    pthread_create(&thread, 0, reverse_on_thread, args);
    pthread_join(thread, 0);
    for (int i = 0; i < N; ++i) {
      check_close("interleaved, first", dx1[i], want[i], CHECK_CF_RTOL,
                  CHECK_CF_ATOL);
      check_close("interleaved, second on a thread", dx2[i], want[i],
                  CHECK_CF_RTOL, CHECK_CF_ATOL);
      check_close("a gradient between the halves", between[i], want[i],
                  CHECK_CF_RTOL, CHECK_CF_ATOL);
    }
  }

  /* The tape in the program's memory. */
  {
    int size = __enzyme_augmentsize((void *)mix, enzyme_dup, enzyme_dup,
                                    enzyme_const);
    void *memory = malloc(size);
    double x[N], y[N], dx[N] = {0}, dy[N];
    for (int i = 0; i < N; ++i) {
      x[i] = p[i];
      dy[i] = weights[i];
    }
    __enzyme_augmentfwd((void *)mix, enzyme_allocated, size, enzyme_tape,
                        memory, y, dy, x, dx, enzyme_const, N);
    __enzyme_reverse((void *)mix, enzyme_allocated, size, enzyme_tape, memory,
                     y, dy, x, dx, enzyme_const, N);
    for (int i = 0; i < N; ++i)
      check_close("tape in memory", dx[i], want[i], CHECK_CF_RTOL,
                  CHECK_CF_ATOL);
    free(memory);
  }

  /* A double result: the primal beside the tape, the out argument's
   * adjoint returned, the result's adjoint given (2.5). */
  {
    double x[N], dx[N] = {0}, s = 1.3;
    for (int i = 0; i < N; ++i)
      x[i] = p[i];
    tape_and_double a = __enzyme_augmentfwd_d((void *)energy, x, dx, s);
    check_close("primal result", a.result, energy(p, s), CHECK_CF_RTOL,
                CHECK_CF_ATOL);
    double ds = __enzyme_reverse_d((void *)energy, x, dx, s, 2.5, a.tape);
    double dp[N];
    check_fd_grad(energy_s_fd, &s, p, N, dp);
    for (int i = 0; i < N; ++i)
      check_close("double result: dx", dx[i], 2.5 * dp[i], CHECK_FD_RTOL,
                  CHECK_FD_ATOL);
    double h = 1e-6;
    double fd = (energy(p, s + h) - energy(p, s - h)) / (2 * h);
    check_close("double result: ds", ds, 2.5 * fd, CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  }

  /* A pointer result and its shadow. */
  {
    double x[N], dx[N] = {0};
    for (int i = 0; i < N; ++i)
      x[i] = p[i];
    tape_and_pointer a = __capsule_augmentfwd_p((void *)scaled, x, dx, 0.7);
    check_close("pointer result", (double)(a.result - x), 1, 0, 0);
    check_close("its shadow", (double)(a.shadow - dx), 1, 0, 0);
    a.shadow[0] = 1; /* the adjoint of x[1] after the call */
    __capsule_reverse_v((void *)scaled, x, dx, 0.7, a.tape);
    check_close("pointer result: dx", dx[1], 1.7, CHECK_CF_RTOL,
                CHECK_CF_ATOL);
  }

  /* The global's shadow holds this call's state between the halves. */
  {
    double x[N], dx[N] = {0}, y, dy = 1, other[N] = {0}, q[N] = {1, 2, 3, 4};
    for (int i = 0; i < N; ++i)
      x[i] = p[i];
    void *tape = __enzyme_augmentfwd((void *)through_global, &y, &dy, x, dx);
    through_global_marker(q); /* other values in the global */
    __capsule_autodiff((void *)reads_state, q, other);
    __enzyme_reverse((void *)through_global, &y, &dy, x, dx, tape);
    check_grad_fd("global state between the halves", dx, through_global_fd, 0,
                  p, N);
  }

  /* Split mode of code whose rules compute gradients. */
  {
    double x[2] = {0.3, -0.2}, dx[2] = {0}, y, dy = 1;
    void *tape = __capsule_augmentfwd((void *)ruled, &y, &dy, x, dx);
    __capsule_reverse((void *)ruled, &y, &dy, x, dx, tape);
    check_grad_fd("rules computing gradients inside split mode", dx,
                  unruled_fd, 0, x, 2);
  }

  /* A custom rule that calls split mode, inside an enclosing gradient. */
  {
    double g[N] = {0}, h[N] = {0};
    __capsule_autodiff((void *)through_rule, p, g);
    __capsule_autodiff((void *)through_helper, p, h);
    for (int i = 0; i < N; ++i)
      check_close("rule through split mode", g[i], h[i], CHECK_CF_RTOL,
                  CHECK_CF_ATOL);
    check_grad_fd("rule through split mode", g, through_helper_fd, 0, p, N);
  }
  return check_report();
}
