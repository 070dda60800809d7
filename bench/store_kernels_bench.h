/*===- store_kernels_bench.h - Non-inlined loops that store: objective ----===*
 * Shared by interrupt.c. Each kernel is a counted loop, not inlined into
 * the objective, that stores to memory: the case where per-store journal
 * barriers would keep the instrumented loop from vectorizing as the
 * primal's does (docs/interrupt.md, "Journal barriers in loops").
 *   - axpy: contiguous stores; their range is known before the loop;
 *   - relu: a store under a condition;
 *   - scatter: stores through an index array;
 *   - column: stores a stride known only at run time apart.
 * Every store is an overwrite from inputs the kernels only read, so each
 * run of the objective ends in the same memory and result.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_BENCH_STORE_KERNELS_BENCH_H
#define CAPSULE_BENCH_STORE_KERNELS_BENCH_H

#include "bench_util.h"

enum store_kernel { STORE_AXPY, STORE_RELU, STORE_SCATTER, STORE_COLUMN };

__attribute__((noinline)) void store_axpy(long n, double a, const double *x,
                                          const double *z, double *y) {
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + z[i];
}

__attribute__((noinline)) void store_relu(long n, double a, const double *x,
                                          double *y) {
  for (long i = 0; i < n; i++)
    if (x[i] > 0)
      y[i] = a * x[i];
}

__attribute__((noinline)) void store_scatter(long n, double a, const int *to,
                                             const double *x, double *y) {
  for (long i = 0; i < n; i++)
    y[to[i]] = a * x[i];
}

__attribute__((noinline)) void store_column(long n, long stride, double a,
                                            const double *x, double *y) {
  for (long i = 0; i < n; i++)
    y[i * stride] = a * x[i];
}

/* `reps` calls of one kernel, each with its own scale. */
double store_kernels_objective(int kernel, long n, long reps, long stride,
                               const double *x, const double *z,
                               const int *to, double *y) {
  for (long r = 0; r < reps; r++) {
    double a = 1.0 + 1e-9 * (double)r;
    switch (kernel) {
    case STORE_AXPY:
      store_axpy(n, a, x, z, y);
      break;
    case STORE_RELU:
      store_relu(n, a, x, y);
      break;
    case STORE_SCATTER:
      store_scatter(n, a, to, x, y);
      break;
    case STORE_COLUMN:
      store_column(n, stride, a, x, y);
      break;
    }
  }
  return y[0] + y[n / 2] + y[n - 1];
}

typedef struct store_kernels_ctx {
  int kernel;
  long n, reps, stride;
  double *x, *z, *y;
  int *to;
} store_kernels_ctx;

/* x a sine wave (runs of 157 elements of one sign: relu's branch is
 * predictable, so that its timing is that of the loop and not of branch
 * mispredictions, which differ between two copies of one loop with their
 * code at different addresses); z uniform in (-1, 1); `to` a permutation
 * of 0..n-1; y holds the strided case's n * stride values. */
static void store_kernels_setup(store_kernels_ctx *c, int kernel, long n,
                                long reps, long stride, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->kernel = kernel;
  c->n = bench_opaque(n);
  c->reps = bench_opaque(reps);
  c->stride = bench_opaque(stride);
  c->x = bench_alloc(n);
  c->z = bench_alloc(n);
  c->y = bench_alloc(n * stride);
  c->to = bench_alloc_ints(n);
  for (long i = 0; i < n; i++) {
    c->x[i] = sin(0.02 * (double)i);
    c->z[i] = 2 * bench_uniform(&r) - 1;
    c->to[i] = (int)i;
  }
  for (long i = n - 1; i > 0; i--) {
    long j = bench_index(&r, i + 1);
    int t = c->to[i];
    c->to[i] = c->to[j];
    c->to[j] = t;
  }
}

static double store_kernels_eval(void *p) {
  store_kernels_ctx *c = p;
  return store_kernels_objective(c->kernel, c->n, c->reps, c->stride, c->x,
                                 c->z, c->to, c->y);
}

static void store_kernels_free(store_kernels_ctx *c) {
  free(c->x);
  free(c->z);
  free(c->y);
  free(c->to);
}

#endif
