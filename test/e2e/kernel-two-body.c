// Kernel: 2-body gravity in 2-D, 100 leapfrog (kick-drift-kick) steps with softening; gradient w.r.t. the initial state (dup) and G (out).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

static void accel(const double *pos, const double *m, double G, double *acc) {
  double dx = pos[2] - pos[0], dy = pos[3] - pos[1];
  double r2 = dx * dx + dy * dy + 1e-2;
  double inv3 = 1.0 / (r2 * sqrt(r2));
  acc[0] = G * m[1] * dx * inv3;
  acc[1] = G * m[1] * dy * inv3;
  acc[2] = -G * m[0] * dx * inv3;
  acc[3] = -G * m[0] * dy * inv3;
}

/* s = [x1, y1, x2, y2, vx1, vy1, vx2, vy2] */
double orbit(const double *s0, const double *m, double G, int steps) {
  const double dt = 0.01;
  double pos[4], vel[4], acc[4];
  for (int i = 0; i < 4; i++) {
    pos[i] = s0[i];
    vel[i] = s0[4 + i];
  }
  accel(pos, m, G, acc);
  for (int n = 0; n < steps; n++) {
    for (int i = 0; i < 4; i++)
      vel[i] += 0.5 * dt * acc[i];
    for (int i = 0; i < 4; i++)
      pos[i] += dt * vel[i];
    accel(pos, m, G, acc);
    for (int i = 0; i < 4; i++)
      vel[i] += 0.5 * dt * acc[i];
  }
  double ke = 0.5 * m[0] * (vel[0] * vel[0] + vel[1] * vel[1]) +
              0.5 * m[1] * (vel[2] * vel[2] + vel[3] * vel[3]);
  return 0.7 * pos[0] - 0.4 * pos[3] + ke;
}

static const double M[2] = {1.0, 0.8};
static double G = 1.0;
static double S0[8] = {-0.5, 0.0, 0.5, 0.1, 0.05, -0.6, -0.1, 0.6};
static double s_fd(double *s, void *ctx) {
  (void)ctx;
  return orbit(s, M, G, 100);
}
static double g_fd(double g) { return orbit(S0, M, g, 100); }

int main(void) {
  double ds[8] = {0};
  double dG = __capsule_autodiff((void *)orbit, capsule_dup, S0, ds, capsule_const,
                                 M, capsule_out, G, capsule_const, 100);
  check_grad_fd("ds0", ds, s_fd, 0, S0, 8);
  check_close("dG (fd)", dG, check_fd1(g_fd, G), CHECK_FD_RTOL, CHECK_FD_ATOL);
  return check_report();
}
