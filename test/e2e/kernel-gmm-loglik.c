// Kernel (Enzyme spellings): Gaussian mixture log-likelihood, 3 diagonal components in 2-D, 10 points, log-sum-exp over components.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include "include/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);

enum { K = 3, D = 2, NPTS = 10, NP = K * D + K * D + K };

static double lse(const double *v, int n) {
  double m = v[0], s = 0.0;
  for (int i = 1; i < n; i++)
    if (v[i] > m)
      m = v[i];
  for (int i = 0; i < n; i++)
    s += exp(v[i] - m);
  return m + log(s);
}

/* p = [means K*D, log sigmas K*D, weight logits K] */
double gmm_loglik(const double *p, const double *x, int npts) {
  const double *mu = p, *logsig = p + K * D, *alpha = p + 2 * K * D;
  double lw = lse(alpha, K), ll = 0.0;
  for (int n = 0; n < npts; n++) {
    double t[K];
    for (int k = 0; k < K; k++) {
      t[k] = alpha[k] - lw;
      for (int d = 0; d < D; d++) {
        double z = (x[n * D + d] - mu[k * D + d]) * exp(-logsig[k * D + d]);
        t[k] += -0.5 * z * z - logsig[k * D + d] - 0.9189385332046727;
      }
    }
    ll += lse(t, K);
  }
  return ll;
}

static const double XS[NPTS * D] = {0.1, 0.3, -1.2, 0.8, 0.9, -0.4, 1.5, 1.1,
                                    -0.3, -0.9, 0.4, 0.2, -1.0, 1.3, 2.0, 0.5,
                                    0.7, -1.1, -0.6, 0.0};
static double ll_fd(double *p, void *ctx) {
  (void)ctx;
  return gmm_loglik(p, XS, NPTS);
}

int main(void) {
  double p[NP] = {-0.8, 0.6, 0.5, -0.5, 1.4, 0.9,    /* means */
                  -0.2, 0.1, 0.3, -0.4, 0.0, -0.1,   /* log sigmas */
                  0.2, -0.3, 0.5};                   /* weight logits */
  double dp[NP] = {0};
  __enzyme_autodiff((void *)gmm_loglik, enzyme_dup, p, dp, enzyme_const, XS,
                    enzyme_const, NPTS);
  check_grad_fd("dparams", dp, ll_fd, 0, p, NP);
  return check_report();
}
