// Nested differentiation of a function that uses globals (parameters it reads, scratch it writes and reads back): forward over reverse (Enzyme's Hessian-vector product), reverse over forward, forward over forward, the inner call made twice in one outer call, and a plain gradient of the same function beside them, against closed forms, at -O0 to -O3. Each round of nesting has shadow globals of its own.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include "check.h"

int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_d(void *, ...);

enum { N = 4 };
double W[N] = {1.5, -0.5, 2.0, 0.75}; /* parameters: read only */
double scratch[N];                    /* written, then read back */
int calls;                            /* an inactive counter */

/* f(x) = sum_i W_i x_i^2 x_{i+1} (indices cyclic), through the scratch. */
static double f(const double *x) {
  calls++;
  for (int i = 0; i < N; i++)
    scratch[i] = W[i] * x[i] * x[i];
  double s = 0;
  for (int i = 0; i < N; i++)
    s += scratch[i] * x[(i + 1) % N];
  return s;
}

static void gradient_cf(const double *x, double *g) {
  for (int j = 0; j < N; j++) {
    int prev = (j + N - 1) % N, next = (j + 1) % N;
    g[j] = 2 * W[j] * x[j] * x[next] + W[prev] * x[prev] * x[prev];
  }
}

static void hessian_vector_cf(const double *x, const double *v, double *hv) {
  for (int j = 0; j < N; j++) {
    int prev = (j + N - 1) % N, next = (j + 1) % N;
    hv[j] = 2 * W[j] * x[next] * v[j] + 2 * W[j] * x[j] * v[next] +
            2 * W[prev] * x[prev] * v[prev];
  }
}

/* g += f'(x), by reverse mode. */
static void grad(const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

/* g = f'(x) from two inner calls, each zeroing its own shadows. */
static void grad_twice(const double *x, double *g) {
  double first[N] = {0}, second[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, first);
  __enzyme_autodiff((void *)f, enzyme_dup, x, second);
  for (int i = 0; i < N; i++)
    g[i] = 0.5 * (first[i] + second[i]);
}

/* f'(x) v, by forward mode. */
static double directional(const double *x, const double *v) {
  return __enzyme_fwddiff_d((void *)f, enzyme_dup, x, v);
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.8, 0.5}, v[N] = {1, 0.5, -1, 0.25};
  double g_cf[N], hv_cf[N];
  gradient_cf(x, g_cf);
  hessian_vector_cf(x, v, hv_cf);

  /* A plain gradient of f (the first round's shadows, bound). */
  double g[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  check_vec_cf("plain gradient", g, g_cf, N);

  /* Forward over reverse. */
  double g2[N] = {0}, hv[N] = {0};
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g2, hv);
  check_vec_cf("forward over reverse: gradient", g2, g_cf, N);
  check_vec_cf("forward over reverse: Hv", hv, hv_cf, N);

  double g3[N] = {0}, hv3[N] = {0};
  __enzyme_fwddiff((void *)grad_twice, enzyme_dup, x, v, enzyme_dup, g3, hv3);
  check_vec_cf("two inner calls: gradient", g3, g_cf, N);
  check_vec_cf("two inner calls: Hv", hv3, hv_cf, N);

  /* Reverse over forward: the gradient of x -> f'(x) v is H v, and v's
   * shadow gets f'(x). */
  double dx[N] = {0}, dv[N] = {0};
  __enzyme_autodiff((void *)directional, enzyme_dup, x, dx, enzyme_dup, v, dv);
  check_vec_cf("reverse over forward: Hv", dx, hv_cf, N);
  check_vec_cf("reverse over forward: gradient", dv, g_cf, N);

  /* Forward over forward: w' H v. */
  double w[N] = {0.5, -1, 0.25, 2}, none[N] = {0};
  double whv = __enzyme_fwddiff_d((void *)directional, enzyme_dup, x, w,
                                  enzyme_dup, v, none);
  double want = 0;
  for (int i = 0; i < N; i++)
    want += w[i] * hv_cf[i];
  check_cf("forward over forward: w'Hv", whv, want);
  check_cf("the counter ran", calls > 0, 1);
  return check_report();
}
