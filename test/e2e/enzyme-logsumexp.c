// Enzyme spellings: numerically stable log-sum-exp (data-dependent max search) with enzyme_dup.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include "include/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);

double logsumexp(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m)
      m = x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - m);
  return m + log(s);
}

enum { N = 6 };
static double lse_fd(double *x, void *ctx) {
  (void)ctx;
  return logsumexp(x, N);
}

int main(void) {
  /* a unique maximum, 0.8 above the next */
  double x[N] = {0.3, -1.2, 2.1, 1.3, -0.4, 0.9}, dx[N] = {0}, cf[N];
  double lse = logsumexp(x, N);
  for (int i = 0; i < N; i++)
    cf[i] = exp(x[i] - lse); /* softmax */
  __enzyme_autodiff((void *)logsumexp, enzyme_dup, x, dx, enzyme_const, N);
  check_grad_cf_fd("dx = softmax", dx, cf, lse_fd, 0, x, N);
  return check_report();
}
