// Array of structs {double x, y, m; int id} (pairwise potential), dup with a shadow array of structs.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

typedef struct {
  double x, y, m;
  int id;
} Particle;

double energy(const Particle *p, int n) {
  double e = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y;
      e -= p[i].m * p[j].m / sqrt(dx * dx + dy * dy + 0.01);
    }
  for (int i = 0; i < n; i++)
    e += 0.5 * p[i].m * (p[i].x * p[i].x + p[i].y * p[i].y) *
         (p[i].id % 2 ? 1.0 : 2.0);
  return e;
}

enum { N = 4 };
static double eval(double *v, void *ctx) {
  (void)ctx;
  Particle p[N];
  for (int i = 0; i < N; i++) {
    p[i].x = v[3 * i];
    p[i].y = v[3 * i + 1];
    p[i].m = v[3 * i + 2];
    p[i].id = i;
  }
  return energy(p, N);
}

int main(void) {
  Particle p[N] = {{0.1, 0.3, 1.0, 0}, {-0.7, 0.5, 2.0, 1},
                   {0.9, -0.4, 0.5, 2}, {0.2, 1.1, 1.5, 3}};
  Particle dp[N];
  double v[3 * N], got[3 * N];
  for (int i = 0; i < N; i++) {
    dp[i].x = dp[i].y = dp[i].m = 0.0;
    dp[i].id = p[i].id;
    v[3 * i] = p[i].x;
    v[3 * i + 1] = p[i].y;
    v[3 * i + 2] = p[i].m;
  }
  __capsule_autodiff_v((void *)energy, capsule_dup, p, dp, capsule_const, N);
  for (int i = 0; i < N; i++) {
    got[3 * i] = dp[i].x;
    got[3 * i + 1] = dp[i].y;
    got[3 * i + 2] = dp[i].m;
  }
  check_grad_fd("d[x, y, m]", got, eval, 0, v, 3 * N);
  return check_report();
}
