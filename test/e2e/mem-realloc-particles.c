// Particle list grown with realloc (doubling capacity) holding structs of
// mixed fields {int id; double w; double x[2]; int alive;}; a "resampling"
// pass that compacts the array (struct assignment), removes dead particles
// and appends children; objective = weighted moment of the final population.
// Regression: a partial struct copy whose !tbaa.struct tags the double
// array as 'omnipotent char' was once taken for integer data (silently
// wrong gradients at -O1 and above).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"

typedef struct {
  int id;
  double w;
  double x[2];
  int alive;
} Particle;

typedef struct {
  Particle *p;
  size_t n, cap;
} PList;

static void plist_push(PList *L, Particle q) {
  if (L->n == L->cap) {
    L->cap = L->cap ? 2 * L->cap : 2;
    L->p = realloc(L->p, L->cap * sizeof(Particle));
  }
  L->p[L->n++] = q;
}

static void move_all(PList *L, const double *theta) {
  for (size_t i = 0; i < L->n; i++) {
    Particle *q = &L->p[i];
    double vx = theta[0] * q->x[1], vy = -theta[1] * sin(q->x[0]);
    q->x[0] += 0.1 * vx;
    q->x[1] += 0.1 * vy;
    q->w *= exp(-0.5 * (q->x[0] * q->x[0]));
    q->alive = q->id % 3 != 0 || i < 2;
  }
}

static void compact(PList *L) {
  size_t k = 0;
  for (size_t i = 0; i < L->n; i++)
    if (L->p[i].alive) {
      if (k != i) L->p[k] = L->p[i];
      k++;
    }
  L->n = k;
}

static void spawn(PList *L, int *next_id) {
  size_t n0 = L->n;
  for (size_t i = 0; i < n0; i++) {
    Particle c = L->p[i];
    c.id = (*next_id)++;
    c.w *= 0.5;
    L->p[i].w *= 0.5;
    c.x[0] += 0.05 * (double)(i % 2 ? 1 : -1);
    plist_push(L, c);
  }
}

double population(const double *x0, const double *theta, int n, int gens) {
  PList L = {0, 0, 0};
  int next_id = 0;
  for (int i = 0; i < n; i++) {
    Particle q = {next_id++, 1.0, {x0[2 * i], x0[2 * i + 1]}, 1};
    plist_push(&L, q);
  }
  for (int g = 0; g < gens; g++) {
    move_all(&L, theta);
    compact(&L);
    if (L.n < 40) spawn(&L, &next_id);
  }
  double m = 0, W = 0;
  for (size_t i = 0; i < L.n; i++) {
    m += L.p[i].w * (L.p[i].x[0] * L.p[i].x[0] + 2 * L.p[i].x[1]);
    W += L.p[i].w;
  }
  free(L.p);
  return m / W + W;
}

enum { NP = 5, NX = 2 * NP };
static double TH[2] = {0.9, 1.4};
static double fd_x(double *x, void *c) { (void)c; return population(x, TH, NP, 4); }
static double fd_t(double *t, void *c) { return population((double *)c, t, NP, 4); }

int main(void) {
  double x[NX], dx[NX] = {0}, th[2] = {0.9, 1.4}, dth[2] = {0};
  for (int i = 0; i < NX; i++) x[i] = 0.4 * cos(1.7 * i) + 0.1;
  __capsule_autodiff((void *)population, capsule_dup, x, dx, capsule_dup, th, dth,
                     capsule_const, NP, capsule_const, 4);
  check_grad_fd("dx0", dx, fd_x, 0, x, NX);
  check_grad_fd("dtheta", dth, fd_t, x, th, 2);
  return check_report();
}
