// Forward mode on numerical kernels (an MLP with tanh, RK4 steps of a damped pendulum, softmax cross-entropy, a Gaussian mixture log-likelihood): each directional derivative equals the reverse-mode gradient dotted with the direction, and FD.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <math.h>
#include <string.h>
#include <capsule/capsule.h>
#include "check.h"

void __capsule_autodiff_v(void *, ...);

#define IN 4
#define HID 5
#define NP (IN * HID + HID + HID) /* W1, b1, w2 */

static double mlp(const double *p, const double *in) {
  const double *w1 = p, *b1 = p + IN * HID, *w2 = b1 + HID;
  double out = 0;
  for (int h = 0; h < HID; h++) {
    double a = b1[h];
    for (int i = 0; i < IN; i++)
      a += w1[h * IN + i] * in[i];
    out += w2[h] * tanh(a);
  }
  return out * out;
}
static const double INPUT[IN] = {0.5, -1.0, 0.25, 2.0};
static double mlp_f(double *p, void *ctx) { return mlp(p, INPUT); }

/* theta'' = -sin(theta) - c theta', state (theta, omega), parameters
 * (c, theta0, omega0). */
static void pendulum_rhs(const double *s, double c, double *ds) {
  ds[0] = s[1];
  ds[1] = -sin(s[0]) - c * s[1];
}
static double rk4(const double *p, int steps) {
  double s[2] = {p[1], p[2]}, k[4][2], t[2], h = 0.05;
  for (int n = 0; n < steps; n++) {
    pendulum_rhs(s, p[0], k[0]);
    for (int i = 0; i < 2; i++)
      t[i] = s[i] + h / 2 * k[0][i];
    pendulum_rhs(t, p[0], k[1]);
    for (int i = 0; i < 2; i++)
      t[i] = s[i] + h / 2 * k[1][i];
    pendulum_rhs(t, p[0], k[2]);
    for (int i = 0; i < 2; i++)
      t[i] = s[i] + h * k[2][i];
    pendulum_rhs(t, p[0], k[3]);
    for (int i = 0; i < 2; i++)
      s[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
  }
  return s[0] * s[0] + 0.5 * s[1];
}
static double rk4_f(double *p, void *ctx) { return rk4(p, 40); }

#define K 4
static double xent(const double *z, int label) {
  double m = z[0];
  for (int i = 1; i < K; i++)
    m = fmax(m, z[i]);
  double s = 0;
  for (int i = 0; i < K; i++)
    s += exp(z[i] - m);
  return log(s) + m - z[label];
}
static double xent_f(double *z, void *ctx) { return xent(z, 2); }

/* Log-likelihood of points under a 1-D mixture of two Gaussians,
 * parameters (mu1, mu2, log s1, log s2, logit w). */
static const double PTS[6] = {-1.2, -0.3, 0.1, 0.8, 1.7, 2.4};
static double gmm(const double *q) {
  double w = 1 / (1 + exp(-q[4])), s1 = exp(q[2]), s2 = exp(q[3]);
  double ll = 0;
  for (int i = 0; i < 6; i++) {
    double a = (PTS[i] - q[0]) / s1, b = (PTS[i] - q[1]) / s2;
    ll += log(w * exp(-0.5 * a * a) / s1 + (1 - w) * exp(-0.5 * b * b) / s2);
  }
  return -ll;
}
static double gmm_f(double *q, void *ctx) { return gmm(q); }

static void check_kernel(const char *what, double jvp, const double *grad,
                         check_fn f, const double *x, const double *v, int n) {
  char name[128];
  double dot = 0, fd = 0;
  for (int i = 0; i < n; i++) {
    dot += grad[i] * v[i];
    fd += v[i] * check_fd_partial(f, NULL, x, n, i);
  }
  snprintf(name, sizeof name, "%s: jvp against reverse", what);
  check_close(name, jvp, dot, 1e-12, 1e-14);
  snprintf(name, sizeof name, "%s: jvp against FD", what);
  check_close(name, jvp, fd, CHECK_FD_RTOL, CHECK_FD_ATOL);
}

int main(void) {
  double p[NP], v[NP], g[NP];
  for (int i = 0; i < NP; i++) {
    p[i] = 0.3 * sin(1.7 * i + 0.2);
    v[i] = cos(0.9 * i);
  }
  memset(g, 0, sizeof g);
  __capsule_autodiff_v((void *)mlp, p, g, capsule_const, INPUT);
  check_kernel("mlp", __capsule_fwddiff((void *)mlp, p, v, capsule_const, INPUT),
               g, mlp_f, p, v, NP);

  double q[3] = {0.3, 1.2, -0.4}, qv[3] = {1.0, -0.5, 2.0}, qg[3] = {0};
  __capsule_autodiff_v((void *)rk4, q, qg, capsule_const, 40);
  check_kernel("rk4", __capsule_fwddiff((void *)rk4, q, qv, capsule_const, 40),
               qg, rk4_f, q, qv, 3);

  double z[K] = {0.2, 1.5, -0.7, 0.9}, zv[K] = {0.3, -1.0, 2.0, 0.5},
         zg[K] = {0};
  __capsule_autodiff_v((void *)xent, z, zg, capsule_const, 2);
  check_kernel("softmax cross-entropy",
               __capsule_fwddiff((void *)xent, z, zv, capsule_const, 2), zg,
               xent_f, z, zv, K);

  double m[5] = {-0.5, 1.4, -0.2, 0.3, 0.4}, mv[5] = {1, 2, -1, 0.5, -0.3},
         mg[5] = {0};
  __capsule_autodiff_v((void *)gmm, m, mg);
  check_kernel("gmm", __capsule_fwddiff((void *)gmm, m, mv), mg, gmm_f, m, mv,
               5);
  return check_report();
}
