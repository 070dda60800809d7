// Kernel: linear layer + numerically stable softmax cross-entropy over a batch with int labels; closed-form gradient (p - y) x^T.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

enum { C = 3, F = 4, NB = 4, NP = C * F + C };

static void logits(const double *W, const double *x, double *z) {
  for (int c = 0; c < C; c++) {
    z[c] = W[C * F + c]; /* bias */
    for (int f = 0; f < F; f++)
      z[c] += W[c * F + f] * x[f];
  }
}

double xent(const double *W, const double *X, const int *label, int nb) {
  double loss = 0.0;
  for (int n = 0; n < nb; n++) {
    double z[C];
    logits(W, X + n * F, z);
    double m = z[0];
    for (int c = 1; c < C; c++)
      m = z[c] > m ? z[c] : m;
    double s = 0.0;
    for (int c = 0; c < C; c++)
      s += exp(z[c] - m);
    loss += -(z[label[n]] - m - log(s));
  }
  return loss / nb;
}

static const double X[NB * F] = {0.5, -1.2, 0.3, 0.9, -0.4, 0.8, 1.5, -0.2,
                                 1.1, 0.1, -0.6, 0.4, -0.9, -0.3, 0.2, 1.3};
static const int LABEL[NB] = {0, 2, 1, 2};
static double xent_fd(double *W, void *ctx) {
  (void)ctx;
  return xent(W, X, LABEL, NB);
}

int main(void) {
  double W[NP], dW[NP] = {0}, cf[NP] = {0};
  for (int i = 0; i < NP; i++)
    W[i] = 0.7 * cos(0.9 * i + 0.2);
  for (int n = 0; n < NB; n++) {
    double z[C], s = 0.0;
    logits(W, X + n * F, z);
    for (int c = 0; c < C; c++)
      s += exp(z[c]);
    for (int c = 0; c < C; c++) {
      double g = (exp(z[c]) / s - (c == LABEL[n])) / NB;
      for (int f = 0; f < F; f++)
        cf[c * F + f] += g * X[n * F + f];
      cf[C * F + c] += g;
    }
  }
  __capsule_autodiff_v((void *)xent, capsule_dup, W, dW, capsule_const, X,
                       capsule_const, LABEL, capsule_const, NB);
  check_grad_cf_fd("dW", dW, cf, xent_fd, 0, W, NP);
  return check_report();
}
