// Interruptible execution: an array of structs (particles with double
// position and velocity, a float mass and int flags) advanced over several
// time steps with pairwise interactions and bounces; the particles and the
// returned energy must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct particle {
  double x, y;
  double vx, vy;
  float mass;
  int flags;
};

double simulate(struct particle *p, int n, int steps, double dt) {
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y;
        double d2 = dx * dx + dy * dy + 0.01;
        double f = dt / d2;
        p[i].vx += f * dx * p[j].mass;
        p[i].vy += f * dy * p[j].mass;
        p[j].vx -= f * dx * p[i].mass;
        p[j].vy -= f * dy * p[i].mass;
      }
    for (int i = 0; i < n; ++i) {
      p[i].x += p[i].vx * dt;
      p[i].y += p[i].vy * dt;
      if (p[i].x < -2 || p[i].x > 2) {
        p[i].vx = -p[i].vx;
        p[i].flags |= 1;
      }
      if (p[i].y < -2 || p[i].y > 2) {
        p[i].vy = -p[i].vy;
        p[i].flags |= 2;
      }
    }
  }
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += 0.5 * p[i].mass * (p[i].vx * p[i].vx + p[i].vy * p[i].vy);
  return e;
}

static struct particle parts[8];
static void reset(void) {
  memset(parts, 0, sizeof parts);
  for (int i = 0; i < 8; ++i) {
    parts[i].x = (i % 3) - 1.0 + i * 0.05;
    parts[i].y = (i / 3) - 1.0;
    parts[i].vx = (i & 1) ? 0.1 : -0.1;
    parts[i].vy = 0.05 * i;
    parts[i].mass = 1.0f + 0.25f * (float)i;
    parts[i].flags = 0;
  }
}
DEFINE_RUNNERS(double, simulate, parts, 8, 6, 0.05)
static const struct region regions[] = {{parts, sizeof parts}};

int main(void) {
  struct program p = {
      "data-array-of-structs", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,           regions,        1,     4096};
  return check_interruptible(&p) != 0;
}
