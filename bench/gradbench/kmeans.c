/*===- kmeans.c - GradBench kmeans: Newton direction of the k-means cost --===*
 *
 * GradBench's kmeans task (evals/kmeans/README.md), written from its
 * description: n points P and k centroids C in d dimensions,
 *
 *   cost(C) = sum_i min_j |C_j - P_i|^2,
 *
 * and the "dir" function: the gradient J of the cost with respect to C and
 * the diagonal H of its Hessian (the Hessian is diagonal: each coordinate of
 * each centroid only meets its own points), then J / H elementwise, the
 * Newton step of Bottou and Bengio's k-means.
 *
 * Size: k=10, n=1000, d=8, the first input GradBench's eval sends (its
 * defaults are k in {10,100,1000}, n in {1000,10000}, d in {8,16}, sent in
 * order of k*n*d). Inputs as its generator makes them: points uniform in
 * [0,1)^d (here from bench_rng with a fixed seed), centroids the last k
 * points, so that every cluster has a point and H is invertible.
 *
 * Derivatives: J by reverse mode (__enzyme_autodiff); H by forward over
 * reverse (__enzyme_fwddiff of the function that computes J) along the
 * all-ones direction, which gives H * 1, i.e. the diagonal since H is
 * diagonal. Both come out of one call, as in GradBench's Enzyme tool.
 *
 * Check, before anything is timed: J against complex step (first, last and
 * four random components, tolerance 1e-8), then J, H and J / H, every
 * component, against their closed forms (for the cluster S_j of centroid j:
 * J_j = 2 sum_{i in S_j} (C_j - P_i), H_j = 2 |S_j|, J_j / H_j = C_j -
 * mean(S_j)), with the clusters found independently here; the complex
 * instance must reproduce the primal bit for bit. gradbench_run makes the
 * check and exits with status 1, no timings, if it fails.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

/* double kmeans_objective(...) and double complex kmeans_objective_cs(...). */
#define BENCH_BODY "gradbench/kmeans_objective.inc"
#include "../bench_instantiate.h"

typedef struct kmeans_ctx {
  int n, k, d;
  long m; /* k * d: the number of differentiated inputs */
  double *points, *centroids;
  double *J, *H, *dir; /* gradient, Hessian diagonal, Newton direction */
  double *ones;        /* tangent of the centroids: the all-ones direction */
  double complex *c_centroids; /* complex-step check only */
} kmeans_ctx;

/* GradBench's generator: points uniform in [0,1), centroids = last k. */
static void kmeans_setup(kmeans_ctx *c, int k, int n, int d, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->n = (int)bench_opaque(n);
  c->k = (int)bench_opaque(k);
  c->d = (int)bench_opaque(d);
  c->m = (long)c->k * c->d;
  c->points = bench_alloc((long)c->n * c->d);
  c->centroids = bench_alloc(c->m);
  c->J = bench_alloc(c->m);
  c->H = bench_alloc(c->m);
  c->dir = bench_alloc(c->m);
  c->ones = bench_alloc(c->m);
  c->c_centroids = bench_alloc_complex(c->m);
  for (long i = 0; i < (long)c->n * c->d; i++)
    c->points[i] = bench_uniform(&r);
  memcpy(c->centroids, &c->points[(long)(c->n - c->k) * c->d],
         sizeof(double) * (size_t)c->m);
  for (long i = 0; i < c->m; i++) {
    c->ones[i] = 1.0;
    c->c_centroids[i] = c->centroids[i];
  }
}

static void kmeans_free(kmeans_ctx *c) {
  free(c->points);
  free(c->centroids);
  free(c->J);
  free(c->H);
  free(c->dir);
  free(c->ones);
  free(c->c_centroids);
}

static double kmeans_eval(void *p) {
  kmeans_ctx *c = p;
  return kmeans_objective(c->n, c->k, c->d, c->points, c->centroids);
}

static void kmeans_primal(void *p) { bench_sink = kmeans_eval(p); }

/* J += d cost / d centroids (reverse mode). */
static void kmeans_grad_into(int n, int k, int d, const double *points,
                             const double *centroids, double *J) {
  __enzyme_autodiff((void *)kmeans_objective,
                    enzyme_const, n, enzyme_const, k, enzyme_const, d,
                    enzyme_const, points,
                    enzyme_dup, centroids, J);
}

/* The whole "dir" function: J and H by one forward-over-reverse call (J is
 * the primal result of kmeans_grad_into, H the tangent of J along the
 * all-ones direction; both accumulate, so both start at zero), then J / H. */
static void kmeans_newton_dir(void *p) {
  kmeans_ctx *c = p;
  memset(c->J, 0, sizeof(double) * (size_t)c->m);
  memset(c->H, 0, sizeof(double) * (size_t)c->m);
  __enzyme_fwddiff((void *)kmeans_grad_into,
                   enzyme_const, c->n, enzyme_const, c->k, enzyme_const, c->d,
                   enzyme_const, c->points,
                   enzyme_dup, c->centroids, c->ones,
                   enzyme_dup, c->J, c->H);
  for (long i = 0; i < c->m; i++)
    c->dir[i] = c->J[i] / c->H[i];
}

static double complex kmeans_eval_cs(void *p) {
  kmeans_ctx *c = p;
  return kmeans_objective_cs(c->n, c->k, c->d, c->points, c->c_centroids);
}

/* J (after kmeans_newton_dir) against complex step: first, last and four
 * random components. */
static int kmeans_verify_cs(kmeans_ctx *c, const char *label) {
  enum { PER = 6 };
  bench_sample s[PER];
  long idx[PER];
  bench_rng r = bench_rng_seed(0x5eed0007);
  int ns = bench_pick(&r, c->m, idx, PER - 2);
  for (int j = 0; j < ns; j++) {
    long i = idx[j];
    s[j].array = "centroids";
    s[j].index = i;
    s[j].ad = c->J[i];
    s[j].ref = bench_complex_step(kmeans_eval_cs, c, &c->c_centroids[i]);
    s[j].fd = bench_central_diff(kmeans_eval, c, &c->centroids[i],
                                 bench_rel_step(c->centroids[i], 1e-6));
  }
  return bench_verify(label, s, ns, 1e-8);
}

/* |got - want| <= tol * scale, finite; prints the first few failures. */
static int kmeans_close(const char *what, long i, double got, double want,
                        double scale, double tol, int *printed) {
  if (isfinite(got) && fabs(got - want) <= tol * scale)
    return 0;
  if ((*printed)++ < 8)
    printf("    %s[%ld] = %.17g, closed form %.17g   <-- FAIL\n", what, i,
           got, want);
  return 1;
}

/* J, H and J / H, every component, against their closed forms, with the
 * clusters assigned here by plain comparisons (strict <, first of equals
 * wins, as in the objective). Tolerances are relative to the sum of the
 * terms' magnitudes, so rounding in a different summation order passes and
 * a wrong term does not. */
static int kmeans_verify_closed_form(kmeans_ctx *c, const char *label) {
  int n = c->n, k = c->k, d = c->d;
  long *count = calloc((size_t)k, sizeof(long));
  double *sum = bench_alloc(c->m), *absum = bench_alloc(c->m);
  double *jref = bench_alloc(c->m), *jabs = bench_alloc(c->m);
  for (int i = 0; i < n; i++) {
    const double *p = &c->points[(long)i * d];
    int best = 0;
    double best_dist = INFINITY;
    for (int j = 0; j < k; j++) {
      double dist = 0;
      for (int l = 0; l < d; l++) {
        double t = c->centroids[(long)j * d + l] - p[l];
        dist += t * t;
      }
      if (dist < best_dist) {
        best_dist = dist;
        best = j;
      }
    }
    count[best]++;
    for (int l = 0; l < d; l++) {
      long q = (long)best * d + l;
      double t = 2.0 * (c->centroids[q] - p[l]);
      sum[q] += p[l];
      absum[q] += fabs(p[l]);
      jref[q] += t;
      jabs[q] += fabs(t);
    }
  }
  int fails = 0, printed = 0;
  long empty = 0, smallest = n, largest = 0;
  for (int j = 0; j < k; j++) {
    empty += count[j] == 0;
    smallest = count[j] < smallest ? count[j] : smallest;
    largest = count[j] > largest ? count[j] : largest;
  }
  if (empty) {
    printf("    %ld empty cluster(s): H is singular   <-- FAIL\n", empty);
    fails++;
  }
  for (long q = 0; q < c->m && !empty; q++) {
    long size = count[q / d];
    double mean = sum[q] / (double)size;
    fails += kmeans_close("J", q, c->J[q], jref[q], jabs[q], 1e-12, &printed);
    fails += kmeans_close("H", q, c->H[q], 2.0 * (double)size,
                          2.0 * (double)size, 1e-14, &printed);
    fails += kmeans_close("dir", q, c->dir[q], c->centroids[q] - mean,
                          fabs(c->centroids[q]) + absum[q] / (double)size,
                          1e-12, &printed);
  }
  printf("verify %s: J, H and J/H against closed forms, %ld components each, "
         "%d clusters (sizes %ld..%ld): %s\n",
         label, c->m, k, smallest, largest, fails ? "FAILED" : "passed");
  free(count);
  free(sum);
  free(absum);
  free(jref);
  free(jabs);
  return fails;
}

/* The check gradbench_run makes before timing: one Newton direction, then
 * J against complex step and J, H, J / H against their closed forms. Returns
 * the number of failures. */
static int kmeans_verify(void *p) {
  kmeans_ctx *c = p;
  const char *label = "kmeans";
  kmeans_newton_dir(c);
  double f = kmeans_eval(c);
  double complex fc = kmeans_eval_cs(c);
  printf("verify %s: objective %.17g (complex instance: %.17g)\n", label, f,
         creal(fc));
  int fails = kmeans_verify_cs(c, label);
  if (creal(fc) != f) {
    printf("verify %s: the complex instance does not reproduce the primal "
           "value bit for bit   <-- FAIL\n", label);
    fails++;
  }
  return fails + kmeans_verify_closed_form(c, label);
}

int main(void) {
  kmeans_ctx c;
  kmeans_setup(&c, 10, 1000, 8, 0x7a3c5e9f1b2d4c68ULL);
  int status = gradbench_run("kmeans", "k=10,n=1000,d=8", "newton-direction",
                             kmeans_verify, kmeans_primal, kmeans_newton_dir,
                             &c);
  kmeans_free(&c);
  return status;
}
