// GradBench's k-means task (written here from its public description): the cost sum_i min_j |C_j - P_i|^2 and its "dir" J H^-1, with J the gradient with respect to the centroids (reverse mode) and H's diagonal, the Hessian being diagonal, as H times a vector of ones (reverse over forward). Against the closed form: J_j = 2 sum over the cluster (C_j - P_i), H_jj = 2 |cluster j|, dir_j = C_j - mean of the cluster; and the cost's gradient against finite differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
#include <capsule/capsule.h>
#include "check.h"

void __capsule_autodiff_v(void *, ...);

enum { N = 60, K = 4, D = 3 };

static double cost(const double *p, const double *c, int n, int k, int d) {
  double total = 0;
  for (int i = 0; i < n; i++) {
    double best = INFINITY;
    for (int j = 0; j < k; j++) {
      double dist = 0;
      for (int e = 0; e < d; e++) {
        double diff = c[j * d + e] - p[i * d + e];
        dist += diff * diff;
      }
      best = dist < best ? dist : best;
    }
    total += best;
  }
  return total;
}

/* The cost's derivative along v, by forward mode. */
static double cost_dir(const double *p, const double *c, const double *v,
                       int n, int k, int d) {
  return __capsule_fwddiff((void *)cost, capsule_const, p, capsule_dup, c, v,
                           capsule_const, n, capsule_const, k, capsule_const,
                           d);
}

static double points[N * D];

static double cost_of_centroids(double *c, void *ctx) {
  (void)ctx;
  return cost(points, c, N, K, D);
}

int main(void) {
  double c[K * D], grad[K * D] = {0}, hdiag[K * D] = {0}, ones[K * D];
  unsigned s = 12345;
  for (int i = 0; i < N * D; i++) {
    s = s * 1103515245u + 12345u;
    points[i] = (double)(s >> 8 & 0xffff) / 65536.0 * 4 - 2;
  }
  for (int i = 0; i < K * D; i++) {
    c[i] = points[i * 7 % (N * D)] + 0.01 * i;
    ones[i] = 1.0;
  }

  __capsule_autodiff_v((void *)cost, capsule_const, points, capsule_dup, c,
                       grad, capsule_const, N, capsule_const, K,
                       capsule_const, D);
  __capsule_autodiff_v((void *)cost_dir, capsule_const, points, capsule_dup,
                       c, hdiag, capsule_const, ones, capsule_const, N,
                       capsule_const, K, capsule_const, D);

  /* Closed form from the clusters. */
  double sum[K * D] = {0}, want_grad[K * D], want_h[K * D];
  int count[K] = {0};
  for (int i = 0; i < N; i++) {
    int best_j = 0;
    double best = INFINITY;
    for (int j = 0; j < K; j++) {
      double dist = 0;
      for (int e = 0; e < D; e++)
        dist += (c[j * D + e] - points[i * D + e]) *
                (c[j * D + e] - points[i * D + e]);
      if (dist < best) {
        best = dist;
        best_j = j;
      }
    }
    count[best_j]++;
    for (int e = 0; e < D; e++)
      sum[best_j * D + e] += points[i * D + e];
  }
  for (int j = 0; j < K; j++)
    for (int e = 0; e < D; e++) {
      want_grad[j * D + e] = 2 * (count[j] * c[j * D + e] - sum[j * D + e]);
      want_h[j * D + e] = 2.0 * count[j];
    }
  check_grad_cf_fd("J (gradient)", grad, want_grad, cost_of_centroids, NULL, c,
                   K * D);
  check_vec_cf("H diagonal (H times ones)", hdiag, want_h, K * D);
  for (int j = 0; j < K; j++)
    for (int e = 0; e < D; e++)
      if (count[j]) {
        char name[64];
        snprintf(name, sizeof name, "dir[%d][%d]", j, e);
        check_cf(name, grad[j * D + e] / hdiag[j * D + e],
                 c[j * D + e] - sum[j * D + e] / count[j]);
      }
  return check_report();
}
