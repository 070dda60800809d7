/*===- blas-mlp.c - Benchmark: an MLP whose layers are cblas_dgemm calls --===*
 *
 * Two tanh hidden layers of 256, 128 inputs, 10 outputs, a batch of 256;
 * each layer's product is one cblas_dgemm (OpenBLAS) over the batch, so the
 * gradient runs through Capsule's built-in BLAS rules (runtime/blas),
 * whose adjoints are dgemm calls too. Mean squared error; gradient with
 * respect to all weights and biases (one dup array), checked against
 * central differences on a few components before anything is timed.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"

#include <cblas.h>

typedef struct {
  int in, hidden, out, batch;
  long n_params;
  double *params, *d_params, *x, *y, *work, *d_work;
} blas_mlp;

/* One layer: out (batch x n_out) = act(in (batch x n_in) W^T + b). */
static void layer(int batch, int n_in, int n_out, const double *w,
                  const double *b, const double *in, double *out, int act) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, batch, n_out, n_in, 1.0,
              in, n_in, w, n_in, 0.0, out, n_out);
  for (int r = 0; r < batch; ++r)
    for (int j = 0; j < n_out; ++j) {
      double z = out[(long)r * n_out + j] + b[j];
      out[(long)r * n_out + j] = act ? tanh(z) : z;
    }
}

static double objective(int in, int hidden, int out, int batch,
                        const double *params, const double *x,
                        const double *y, double *work) {
  const double *w1 = params, *b1 = w1 + (long)hidden * in;
  const double *w2 = b1 + hidden, *b2 = w2 + (long)hidden * hidden;
  const double *w3 = b2 + hidden, *b3 = w3 + (long)out * hidden;
  double *h1 = work, *h2 = h1 + (long)batch * hidden;
  double *o = h2 + (long)batch * hidden;
  layer(batch, in, hidden, w1, b1, x, h1, 1);
  layer(batch, hidden, hidden, w2, b2, h1, h2, 1);
  layer(batch, hidden, out, w3, b3, h2, o, 0);
  double loss = 0;
  for (long e = 0; e < (long)batch * out; ++e)
    loss += (o[e] - y[e]) * (o[e] - y[e]);
  return loss / batch;
}

static double eval(void *p) {
  blas_mlp *c = p;
  return objective(c->in, c->hidden, c->out, c->batch, c->params, c->x, c->y,
                   c->work);
}

static void primal(void *p) { bench_sink = eval(p); }

static void gradient(void *p) {
  blas_mlp *c = p;
  memset(c->d_params, 0, sizeof(double) * (size_t)c->n_params);
  __capsule_autodiff_v((void *)objective, capsule_const, c->in,
                       capsule_const, c->hidden, capsule_const, c->out,
                       capsule_const, c->batch, capsule_dup, c->params,
                       c->d_params, capsule_const, c->x, capsule_const, c->y,
                       capsule_dup, c->work, c->d_work);
}

int main(void) {
  blas_mlp c = {128, 256, 10, 256, 0, 0, 0, 0, 0, 0, 0};
  c.in = (int)bench_opaque(c.in);
  c.batch = (int)bench_opaque(c.batch);
  c.n_params = (long)c.hidden * c.in + c.hidden + (long)c.hidden * c.hidden +
               c.hidden + (long)c.out * c.hidden + c.out;
  long n_work = 2L * c.batch * c.hidden + (long)c.batch * c.out;
  bench_rng r = bench_rng_seed(0x13198a2e03707344ULL);
  c.params = bench_alloc(c.n_params);
  c.d_params = bench_alloc(c.n_params);
  c.work = bench_alloc(n_work);
  c.d_work = bench_alloc(n_work);
  c.x = bench_alloc((long)c.batch * c.in);
  c.y = bench_alloc((long)c.batch * c.out);
  for (long e = 0; e < c.n_params; ++e)
    c.params[e] = bench_normal(&r) / sqrt(c.hidden);
  for (long e = 0; e < (long)c.batch * c.in; ++e)
    c.x[e] = bench_normal(&r);
  for (long e = 0; e < (long)c.batch * c.out; ++e)
    c.y[e] = 2 * bench_uniform(&r) - 1;
  char label[96];
  snprintf(label, sizeof label, "blas-mlp %d-%d-%d-%d batch=%d (cblas_dgemm)",
           c.in, c.hidden, c.hidden, c.out, c.batch);
  long picks[] = {0, 17, c.n_params / 3, c.n_params / 2, c.n_params - 1};
  if (bench_verify_central(label, eval, gradient, &c, c.params, c.d_params,
                           picks, 5, 1e-6, 1e-5)) {
    printf("%s: gradient check FAILED, no timings reported\n", label);
    return 1;
  }
  bench_result res = bench_measure(primal, gradient, &c);
  bench_print(label, &res);
  return 0;
}
