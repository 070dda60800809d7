// Interruptible execution of forward mode: a function whose body computes a directional derivative (__capsule_fwddiff) of a simulation that allocates and frees a block at every step, grows another by realloc, and reads constant data through a struct (its tangents in the tangent sink), interrupted at any step and resumed (twice, nested, in chains), ends with the uninterrupted run's tangent and memory bit for bit (interrupt_check.h lists the checks); the tangent itself against central differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: env CAPSULE_ATOMIC_LOOPS=0 %clang -O2 -g %capsule_cflags %s -o %t2s %capsule_ldflags -lm && %t2s
#include "interrupt_check.h"

#include <math.h>

#define N 6
#define STEPS 40

static const double COEF[3] = {0.5, -0.25, 0.125};
typedef struct {
  const double *coef; /* constant data */
  double *state;
} model;

__attribute__((noinline)) static double coupling(const model *m, int i) {
  return m->coef[i % 3] * m->state[i] * m->state[(i + 1) % N];
}

/* Advances x by `steps` steps in place; returns an energy. */
double simulate(double *x, int steps) {
  double *state = (double *)malloc(N * sizeof(double));
  memcpy(state, x, N * sizeof(double));
  model m = {COEF, state};
  double e = 0, *trace = NULL;
  for (int t = 0; t < steps; t++) {
    double *next = (double *)malloc(N * sizeof(double));
    for (int i = 0; i < N; i++)
      next[i] = state[i] + 0.01 * sin(state[(i + 1) % N]) +
                0.001 * coupling(&m, i);
    free(state);
    state = next;
    m.state = state;
    e += state[t % N] * state[t % N];
    trace = (double *)realloc(trace, (size_t)(t + 1) * sizeof(double));
    trace[t] = e;
  }
  memcpy(x, state, N * sizeof(double));
  free(state);
  e += 0.1 * trace[steps / 2];
  free(trace);
  return e;
}

double simulate_dir(double *x, double *v, int steps) {
  return __capsule_fwddiff((void *)simulate, capsule_dup, x, v, capsule_const,
                           steps);
}

static const double X0[N] = {0.3, -0.2, 0.5, 0.9, -0.7, 0.1};
static const double V0[N] = {1, -0.5, 0.25, 2, 0.5, -1};
static double xs[N], vs[N];
static void reset(void) {
  memcpy(xs, X0, sizeof xs);
  memcpy(vs, V0, sizeof vs);
}
DEFINE_RUNNERS(double, simulate_dir, xs, vs, STEPS)
static const struct region regions[] = {{xs, sizeof xs}, {vs, sizeof vs}};

/* The tangent against central differences of simulate along V0. */
static int check_tangent(void) {
  reset();
  double t = simulate_dir(xs, vs, STEPS);
  double h = 1e-6, xp[N], xm[N];
  for (int i = 0; i < N; i++) {
    xp[i] = X0[i] + h * V0[i];
    xm[i] = X0[i] - h * V0[i];
  }
  double fd = (simulate(xp, STEPS) - simulate(xm, STEPS)) / (2 * h);
  if (fabs(t - fd) <= 1e-6 * fabs(fd) + 1e-9)
    return 0;
  printf("FAIL tangent %.17g, central differences %.17g\n", t, fd);
  return 1;
}

int main(void) {
  struct program p = {"forward-mode", sizeof(double), reset, plain_run,
                      primops_run,    interrupt_run,  regions, 2, 1 << 16};
  /* Tangent blocks are arena blocks in interruptible code: re-executing a
   * step never frees one twice. (Freed twice, glibc finds its heap
   * corrupted in the second round.) */
  int failures = check_interruptible(&p);
  failures += check_interruptible(&p);
  return (failures != 0) | check_tangent();
}
