// Kernel: a small MLP (4-6-2, tanh hidden layer) with a mean squared error over a batch; gradient with respect to all 44 parameters.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

enum { NI = 4, NH = 6, NO = 2, NB = 3, NP = NH * NI + NH + NO * NH + NO };

double mlp_loss(const double *p, const double *X, const double *T, int nb) {
  const double *W1 = p, *b1 = p + NH * NI, *W2 = b1 + NH, *b2 = W2 + NO * NH;
  double loss = 0.0;
  for (int n = 0; n < nb; n++) {
    const double *x = X + n * NI, *t = T + n * NO;
    double h[NH];
    for (int j = 0; j < NH; j++) {
      double a = b1[j];
      for (int i = 0; i < NI; i++)
        a += W1[j * NI + i] * x[i];
      h[j] = tanh(a);
    }
    for (int k = 0; k < NO; k++) {
      double y = b2[k];
      for (int j = 0; j < NH; j++)
        y += W2[k * NH + j] * h[j];
      loss += 0.5 * (y - t[k]) * (y - t[k]);
    }
  }
  return loss / nb;
}

static const double X[NB * NI] = {0.5, -1.0, 0.3, 0.8, -0.2, 0.4, 1.1, -0.6,
                                  0.9, 0.1, -0.7, 0.2};
static const double T[NB * NO] = {0.3, -0.5, 1.0, 0.2, -0.4, 0.6};
static double loss_fd(double *p, void *ctx) {
  (void)ctx;
  return mlp_loss(p, X, T, NB);
}

int main(void) {
  double p[NP], dp[NP] = {0};
  for (int i = 0; i < NP; i++)
    p[i] = 0.6 * sin(1.3 * i + 0.7);
  __capsule_autodiff_v((void *)mlp_loss, capsule_dup, p, dp, capsule_const, X,
                       capsule_const, T, capsule_const, NB);
  check_grad_fd("dparams", dp, loss_fd, 0, p, NP);
  return check_report();
}
