// Kernel: RK4 integration (200 steps) of a damped Duffing oscillator; gradient w.r.t. the initial state (dup) and damping/stiffness (out, struct of 2).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct { double dc, dk; } Grad2;
Grad2 __capsule_autodiff_2(void *, ...);

static void deriv(const double *s, double c, double k, double *ds) {
  ds[0] = s[1];
  ds[1] = -c * s[1] - k * s[0] - 0.5 * s[0] * s[0] * s[0];
}

double simulate(const double *s0, double c, double k, int steps) {
  const double dt = 0.05;
  double s[2] = {s0[0], s0[1]}, k1[2], k2[2], k3[2], k4[2], t[2];
  for (int n = 0; n < steps; n++) {
    deriv(s, c, k, k1);
    for (int i = 0; i < 2; i++) t[i] = s[i] + 0.5 * dt * k1[i];
    deriv(t, c, k, k2);
    for (int i = 0; i < 2; i++) t[i] = s[i] + 0.5 * dt * k2[i];
    deriv(t, c, k, k3);
    for (int i = 0; i < 2; i++) t[i] = s[i] + dt * k3[i];
    deriv(t, c, k, k4);
    for (int i = 0; i < 2; i++)
      s[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  return s[0] * s[0] + 0.5 * s[1] * s[1] + 0.3 * s[0];
}

static double S0[2] = {1.2, -0.4};
static double CD = 0.3, KS = 2.0;
/* w = [x0, v0, c, k] */
static double w_fd(double *w, void *ctx) {
  (void)ctx;
  return simulate(w, w[2], w[3], 200);
}

int main(void) {
  double ds[2] = {0};
  Grad2 g = __capsule_autodiff_2((void *)simulate, capsule_dup, S0, ds,
                                 capsule_out, CD, capsule_out, KS, capsule_const, 200);
  double w[4] = {S0[0], S0[1], CD, KS}, got[4] = {ds[0], ds[1], g.dc, g.dk};
  check_grad_fd("d[x0, v0, c, k]", got, w_fd, 0, w, 4);
  return check_report();
}
