/* Functions shared by the nesting tests: each takes derivatives inside, so
 * differentiating it differentiates a derivative. Not a test. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <capsule/capsule.h>

/* f(x) = x^3 sin x and its first two derivatives, taken by forward mode. */
static double f(double x) { return x * x * x * sin(x); }
static double df(double x) { return __capsule_fwddiff((void *)f, x, 1.0); }
static double d2f(double x) { return __capsule_fwddiff((void *)df, x, 1.0); }
static double f1_cf(double x) { return 3 * x * x * sin(x) + x * x * x * cos(x); }
static double f2_cf(double x) {
  return 6 * x * sin(x) + 6 * x * x * cos(x) - x * x * x * sin(x);
}
static double f3_cf(double x) {
  return 6 * sin(x) + 18 * x * cos(x) - 9 * x * x * sin(x) - x * x * x * cos(x);
}

/* g(x) = sum_i x_i^2 x_{i+1} (cyclic) + exp(x_0 x_2), n = 4, and its
 * directional derivative g'(x) v by an inner forward-mode call. */
#define GN 4
static double g(const double *x) {
  double s = 0;
  for (int i = 0; i < GN; i++)
    s += x[i] * x[i] * x[(i + 1) % GN];
  return s + exp(x[0] * x[2]);
}
static double g_dir(double *x, double *v) {
  return __capsule_fwddiff((void *)g, capsule_dup, x, v);
}
static void g_grad_cf(const double *x, double *grad) {
  for (int i = 0; i < GN; i++) {
    int p = (i + 1) % GN, m = (i + GN - 1) % GN;
    grad[i] = 2 * x[i] * x[p] + x[m] * x[m];
  }
  double e = exp(x[0] * x[2]);
  grad[0] += x[2] * e;
  grad[2] += x[0] * e;
}
static void g_hess_cf(const double *x, double h[GN][GN]) {
  for (int i = 0; i < GN; i++)
    for (int j = 0; j < GN; j++)
      h[i][j] = 0;
  for (int i = 0; i < GN; i++) {
    int p = (i + 1) % GN;
    h[i][i] += 2 * x[p];
    h[i][p] += 2 * x[i];
    h[p][i] += 2 * x[i];
  }
  double e = exp(x[0] * x[2]);
  h[0][0] += x[2] * x[2] * e;
  h[2][2] += x[0] * x[0] * e;
  h[0][2] += e + x[0] * x[2] * e;
  h[2][0] += e + x[0] * x[2] * e;
}

/* log-sum-exp with its exponentials in a heap block, through a callee. */
static double sum_of(const double *e, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += e[i];
  return s;
}
static double lse(const double *x, int n) {
  double *e = malloc((size_t)n * sizeof(double));
  for (int i = 0; i < n; i++)
    e[i] = exp(x[i]);
  double s = log(sum_of(e, n));
  free(e);
  return s;
}
static double lse_dir(double *x, double *v, int n) {
  return __capsule_fwddiff((void *)lse, capsule_dup, x, v, capsule_const, n);
}

/* A heap block grown by realloc, one element at a time. */
#define GROW_N 5
static double grow(const double *x, int n) {
  double *b = malloc(sizeof(double));
  b[0] = x[0];
  for (int k = 2; k <= n; k++) {
    b = realloc(b, (size_t)k * sizeof(double));
    b[k - 1] = sin(b[k - 2]) * x[k - 1] + b[k - 2] * b[k - 2];
  }
  double s = b[n - 1];
  free(b);
  return s;
}
static double grow_dir(double *x, double *v) {
  return __capsule_fwddiff((void *)grow, capsule_dup, x, v, capsule_const,
                           GROW_N);
}

/* The cube root of a by Newton's method on y^3 - a, the slope taken by a
 * forward-mode call in each iteration. */
static double cube(double y) { return y * y * y; }
static double newton_cbrt(double a) {
  double y = a > 1 ? a : 1;
  for (int k = 0; k < 60; k++)
    y -= (cube(y) - a) / __capsule_fwddiff((void *)cube, y, 1.0);
  return y;
}

/* Perturbation confusion (Siskind and Pearlmutter, 2005): the derivative
 * of x * (d/dy (x + y) at y = 1) is 1, and a tool that mixes the inner and
 * outer perturbations of x gets 2. The inner function sees x by value, or
 * through memory (a closure's environment) that is constant to it or has a
 * zero tangent of its own. */
static double plus(double x, double y) { return x + y; }
static double pc_value(double x) {
  return x * __capsule_fwddiff((void *)plus, capsule_const, x, 1.0, 1.0);
}
static double plus_env(const double *env, double y) { return env[0] + y; }
static double pc_memory_const(double x) {
  double env[1] = {x};
  return x * __capsule_fwddiff((void *)plus_env, capsule_const, env, 1.0, 1.0);
}
static double pc_memory_dup(double x) {
  double env[1] = {x}, denv[1] = {0};
  return x * __capsule_fwddiff((void *)plus_env, capsule_dup, env, denv, 1.0,
                               1.0);
}
/* d/dx [x * (d/dy (x y) at y = 2)] = d/dx x^2 = 2x. */
static double times(double x, double y) { return x * y; }
static double pc_product(double x) {
  return x * __capsule_fwddiff((void *)times, capsule_const, x, 2.0, 1.0);
}

/* Memory without derivatives written through an accessor: s is constant to
 * every derivative, so the tangents of its buffer are kept in the tangent
 * sink, one sink per level. The outer level writes buf[1] = y^2 and the
 * inner reads it: its value is constant to the inner derivative, whatever
 * the outer perturbation. inner(z) = z^3 + buf[1] z, so scratch_dir(y) =
 * d/dz inner at z = y = 3y^2 + y^2 = 4y^2. */
typedef struct {
  double *buf;
} scratch;
__attribute__((noinline)) static double *slot(const scratch *s, int i) {
  return s->buf + i;
}
static double through_scratch(const scratch *s, double z) {
  *slot(s, 0) = z * z;
  return *slot(s, 0) * z + *slot(s, 1) * z;
}
static double scratch_dir(const scratch *s, double y) {
  *slot(s, 1) = y * y;
  return __capsule_fwddiff((void *)through_scratch, capsule_const, s, y, 1.0);
}

/* Reverse-mode inner calls. A long loop and its gradient: the inner tape
 * spans many chunks (4 MiB each). */
static double chain(const double *x, int n) {
  double s = 0, y = x[0];
  for (int i = 0; i < n; i++) {
    y = sin(y) + x[i % 4] * 0.5;
    s += y * y;
  }
  return s;
}
#define LONG_STEPS 700000
static void chain_grad(double *x, double *out, void *ctx) {
  (void)ctx;
  for (int i = 0; i < 4; i++)
    out[i] = 0;
  __capsule_autodiff((void *)chain, capsule_dup, x, out, capsule_const,
                     LONG_STEPS);
}

/* The inner gradient called in a loop: Newton's method on y^3 - a, its
 * slope by reverse mode. */
static double newton_cbrt_r(double a) {
  double y = a > 1 ? a : 1;
  for (int k = 0; k < 60; k++)
    y -= (cube(y) - a) / __capsule_autodiff((void *)cube, y);
  return y;
}

/* Perturbation confusion with a reverse-mode inner derivative: d/dx of
 * x * (d/dy (x + y)) is 1, of x * (d/dy (x y) at y = 2) is 2x. */
static double pc_value_r(double x) {
  return x * __capsule_autodiff((void *)plus, capsule_const, x, 1.0);
}
static double pc_memory_const_r(double x) {
  double env[1] = {x};
  return x * __capsule_autodiff((void *)plus_env, capsule_const, env, 1.0);
}
static double pc_memory_dup_r(double x) {
  double env[1] = {x}, denv[1] = {0};
  return x * __capsule_autodiff((void *)plus_env, capsule_dup, env, denv, 1.0);
}
static double pc_product_r(double x) {
  return x * __capsule_autodiff((void *)times, capsule_const, x, 2.0);
}

/* An inner function with heap blocks, realloc, memcpy and pointers to
 * constant data beside pointers to active data. */
static const double HEAP_WEIGHTS[3] = {0.5, -1.25, 2.0};
typedef struct {
  const double *w; /* constant data */
  double *v;       /* active data */
} heap_term;

static double heap_weighted(const heap_term *t, int k) {
  return t->w[k % 3] * t->v[k];
}

static double heap_busy(const double *x, int n) {
  double *sq = malloc((size_t)n * sizeof(double));
  for (int i = 0; i < n; i++)
    sq[i] = x[i] * x[(i + 1) % n];
  double *copy = malloc((size_t)n * sizeof(double));
  memcpy(copy, sq, (size_t)n * sizeof(double));
  copy = realloc(copy, (size_t)(2 * n) * sizeof(double));
  for (int i = 0; i < n; i++)
    copy[n + i] = sin(copy[i]) * x[i];
  heap_term *terms = malloc((size_t)n * sizeof(heap_term));
  for (int i = 0; i < n; i++) {
    terms[i].w = HEAP_WEIGHTS;
    terms[i].v = copy + n;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += heap_weighted(&terms[i], i) * exp(0.1 * sq[i]);
  free(terms);
  free(copy);
  free(sq);
  return s;
}
