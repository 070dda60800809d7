/*===- eigen-gaussian.c - Gradient of a Gaussian likelihood written in Eigen ===*
 *
 * Issue 18's Eigen benchmark: the negative log-likelihood of n points under
 * N(mu, A A^T + I), a dense Cholesky and a triangular solve in Eigen 3.4
 * (bench/eigen_gaussian_objective.cpp, compiled with clang++-19 -O2 and the
 * plugin), its gradient with respect to mu and A differentiated through
 * Eigen's own code. The gradient is checked against central differences on
 * five components before timing.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"

double eigen_gaussian_nll(const double *params, const double *data, int d,
                          int n);
void eigen_gaussian_gradient(const double *params, double *dparams,
                             const double *data, int d, int n);

typedef struct {
  int d, n;
  long n_params;
  double *params, *d_params, *data;
} gaussian;

static double eval(void *p) {
  gaussian *g = p;
  return eigen_gaussian_nll(g->params, g->data, g->d, g->n);
}

static void primal(void *p) { bench_sink = eval(p); }

static void gradient(void *p) {
  gaussian *g = p;
  memset(g->d_params, 0, sizeof(double) * (size_t)g->n_params);
  eigen_gaussian_gradient(g->params, g->d_params, g->data, g->d, g->n);
}

int main(void) {
  gaussian g = {32, 1000, 0, 0, 0, 0};
  g.d = (int)bench_opaque(g.d);
  g.n = (int)bench_opaque(g.n);
  g.n_params = g.d + (long)g.d * g.d;
  bench_rng r = bench_rng_seed(0x243f6a8885a308d3ULL);
  g.params = bench_alloc(g.n_params);
  g.d_params = bench_alloc(g.n_params);
  g.data = bench_alloc((long)g.d * g.n);
  for (long e = 0; e < g.n_params; ++e)
    g.params[e] = 0.3 * bench_normal(&r);
  for (long e = 0; e < (long)g.d * g.n; ++e)
    g.data[e] = bench_normal(&r);
  char label[96];
  snprintf(label, sizeof label,
           "eigen-gaussian d=%d n=%d (Eigen LLT, triangular solve)", g.d, g.n);
  long picks[] = {0, g.d - 1, g.d, g.n_params / 2, g.n_params - 1};
  if (bench_verify_central(label, eval, gradient, &g, g.params, g.d_params,
                           picks, 5, 1e-5, 1e-5)) {
    printf("%s: gradient check FAILED, no timings reported\n", label);
    return 1;
  }
  bench_result res = bench_measure(primal, gradient, &g);
  bench_print(label, &res);
  return 0;
}
