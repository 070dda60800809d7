/* The gradient of loss() (model.c) with respect to the parameters, by
 * Capsule at the link, checked against central differences. */
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>

#include "model.h"

#define N 5

int main(void) {
  double params[2] = {0.8, -0.2}, grad[2] = {0, 0};
  double inputs[N] = {-1, -0.5, 0, 0.5, 1}, targets[N] = {-0.6, -0.3, 0, 0.3, 0.5};
  __capsule_autodiff((void *)loss, params, grad, capsule_const, inputs,
                     capsule_const, targets, N);
  int ok = 1;
  for (int k = 0; k < 2; ++k) {
    double h = 1e-6, p[2] = {params[0], params[1]}, m[2] = {params[0], params[1]};
    p[k] += h;
    m[k] -= h;
    double fd = (loss(p, inputs, targets, N) - loss(m, inputs, targets, N)) / (2 * h);
    printf("d loss / d param[%d] = %.10f (central differences %.10f)\n", k,
           grad[k], fd);
    ok &= fabs(grad[k] - fd) < 1e-6;
  }
  return ok ? 0 : 1;
}
