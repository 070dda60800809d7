// Kernel (paper example): repeated pair rotations by an angle proportional to |x|; m_i = 2^(floor(lg l) - floor(lg(1 + (1013 floor(3^phi) i mod l)))) repetitions; weighted objective.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double magsqr(const double *x, int n) {
  double s = 0.0;
  for (int k = 0; k < n; k++)
    s += x[k] * x[k];
  return s;
}

static void rotate_pair(double *x, int a, int b, double c, double s) {
  double u = x[a], v = x[b];
  x[a] = c * u - s * v;
  x[b] = s * u + c * v;
}

/* x has n entries, rotated in place; the objective is returned. */
double rotation(double *x, int n, int l, int phi) {
  double base = floor(pow(3.0, phi)); /* inactive floating-point math */
  double lgl = floor(log2((double)l));
  for (int i = 0; i < l; i++) {
    double r = fmod(1013.0 * base * i, (double)l);
    int m = (int)pow(2.0, lgl - floor(log2(1.0 + r)));
    for (int rep = 0; rep < m; rep++) {
      double theta = 0.05 * sqrt(magsqr(x, n));
      double c = cos(theta), s = sin(theta);
      for (int k = 1; k + 1 < n; k += 2) /* odd-even pairs (1,2), (3,4), ... */
        rotate_pair(x, k, k + 1, c, s);
      for (int k = 0; k + 1 < n; k += 2) /* even-odd pairs (0,1), (2,3), ... */
        rotate_pair(x, k, k + 1, c, s);
    }
  }
  /* weighted: plain |x|^2/2 is invariant under the rotations */
  double obj = 0.0;
  for (int k = 0; k < n; k++)
    obj += (1.0 + k / 1000.0) * x[k] * x[k] / 2.0;
  return obj;
}

enum { N = 8, L = 20, PHI = 3 };
static double rot_fd(double *x, void *ctx) {
  (void)ctx;
  return rotation(x, N, L, PHI); /* x is a private copy */
}

int main(void) {
  const double x0[N] = {0.3, -0.7, 0.5, 0.9, -0.2, 0.4, -0.8, 0.6};
  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x0);
  __capsule_autodiff_v((void *)rotation, capsule_dup, x, dx, capsule_const, N,
                       capsule_const, L, capsule_const, PHI);
  /* x is overwritten with its final values, which are seeded with 0: dx is
   * the gradient of the objective w.r.t. the initial x */
  check_grad_fd("dx", dx, rot_fd, 0, x0, N);
  return check_report();
}
