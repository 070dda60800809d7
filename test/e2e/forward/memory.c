// Forward mode through memory: dup arrays in and out (output tangents overwritten, not accumulated), in-place updates, dupnoneed, the heap (malloc, calloc, realloc, free), memcpy/memmove/memset, stack arrays, structs by pointer and by value, tables of row pointers, globals used as scratch, a global passed as a dup argument and also named inside, and a global pointer the caller sets to the dup argument.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <capsule/capsule.h>
#include "check.h"

void __capsule_fwddiff_v(void *, ...);

#define N 6

static void stencil(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double l = i > 0 ? x[i - 1] : 1.0, r = i + 1 < n ? x[i + 1] : -0.5;
    y[i] = l * x[i] + sin(r);
  }
}
static void stencil_v(double *x, double *out, void *ctx) {
  stencil(x, out, N);
}

/* Scratch on the heap, grown with realloc, filled by memcpy/memmove and
 * cleared by memset. */
static void heap_work(const double *x, double *y, int n) {
  double *a = malloc(2 * sizeof(double));
  double *z = calloc(n, sizeof(double));
  a[0] = x[0] * x[1];
  a[1] = exp(x[2]);
  a = realloc(a, (size_t)n * sizeof(double));
  memcpy(a + 2, x + 2, (size_t)(n - 2) * sizeof(double));
  memmove(a + 1, a, (size_t)(n - 1) * sizeof(double));
  for (int i = 0; i < n; i++)
    z[i] += a[i] * a[i];
  memset(a, 0, 2 * sizeof(double));
  for (int i = 0; i < n; i++)
    y[i] = z[i] + a[i] * x[i];
  free(a);
  free(z);
}
static void heap_v(double *x, double *out, void *ctx) { heap_work(x, out, N); }

/* x[i] updated in place, each step reading updated values. */
static void inplace(double *x, int n) {
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < n; i++)
      x[i] = x[i] * x[(i + 1) % n] + 0.1 * cos(x[i]);
}
static void inplace_v(double *x, double *out, void *ctx) {
  inplace(x, N);
  memcpy(out, x, N * sizeof(double));
}

struct body {
  double pos[2], vel[2];
  int id;
  double *mass;
};
struct pt {
  double x, y, z;
};
static struct pt scale_pt(struct pt p, double s) {
  struct pt q = {p.x * s, p.y * s * s, p.z + s};
  return q;
}
/* Structs through pointers (with a pointer field) and by value, and a
 * stack array. */
static void bodies(const double *x, double *y) {
  double m = x[5];
  struct body b[2] = {{{x[0], x[1]}, {x[2], x[3]}, 1, &m},
                      {{x[4], x[0]}, {x[1], x[2]}, 2, &m}};
  double acc[4];
  for (int i = 0; i < 2; i++) {
    struct body *p = &b[i];
    acc[2 * i] = *p->mass * (p->pos[0] - p->vel[1]);
    acc[2 * i + 1] = p->pos[1] * p->vel[0] / *p->mass + p->id;
  }
  struct pt q = scale_pt((struct pt){acc[0], acc[1], acc[2]}, x[3]);
  y[0] = q.x;
  y[1] = q.y;
  y[2] = q.z * acc[3];
}
static void bodies_v(double *x, double *out, void *ctx) { bodies(x, out); }

/* A table of row pointers: the shadow is a table of shadow rows. */
static double rows_quad(double **rows, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += rows[i][j] * rows[j][i] * (i + 1);
  return s;
}
static double rows_f(double *x, void *ctx) {
  double *rows[3] = {x, x + 3, x + 6};
  return rows_quad(rows, 3);
}

static double G[N]; /* scratch */
double W[3] = {0.5, -1.5, 2.0};
static double *gp;

static double scratch(const double *x) {
  for (int i = 0; i < N; i++)
    G[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < N; i++)
    s += G[i] * G[(i + 1) % N];
  return s;
}
static double scratch_f(double *x, void *ctx) { return scratch(x); }

/* w is W itself: both paths carry the tangent. */
static double wsum(const double *w) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += w[i] * W[i];
  return s;
}
/* gp points to x, set by the caller. */
static double via_global(const double *x) { return gp[0] * x[1] + gp[2]; }

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.45, -0.2, 0.9};
  double v[N] = {1.0, 0.5, -0.25, 2.0, -1.0, 0.75};
  double y[N], dy[N];

  for (int i = 0; i < N; i++)
    dy[i] = 99.0; /* overwritten, not accumulated */
  __capsule_fwddiff_v((void *)stencil, capsule_dup, x, v, capsule_dup, y, dy,
                      capsule_const, N);
  check_jvp_fd("stencil", dy, stencil_v, NULL, x, v, N, N);

  for (int i = 0; i < N; i++)
    dy[i] = -7.0;
  __capsule_fwddiff_v((void *)heap_work, x, v, capsule_dupnoneed, y, dy,
                      capsule_const, N);
  check_jvp_fd("heap", dy, heap_v, NULL, x, v, N, N);

  double xi[N], vi[N];
  memcpy(xi, x, sizeof x);
  memcpy(vi, v, sizeof v);
  __capsule_fwddiff_v((void *)inplace, xi, vi, capsule_const, N);
  check_jvp_fd("in place", vi, inplace_v, NULL, x, v, N, N);
  double xf[N];
  memcpy(xf, x, sizeof x);
  inplace(xf, N);
  for (int i = 0; i < N; i++)
    check_cf("in place primal", xi[i], xf[i]);

  __capsule_fwddiff_v((void *)bodies, x, v, y, dy);
  check_jvp_fd("structs", dy, bodies_v, NULL, x, v, N, 3);

  double m[9], dm[9], mv[9];
  for (int i = 0; i < 9; i++) {
    m[i] = 0.1 * i - 0.35;
    mv[i] = 1.0 - 0.2 * i;
  }
  memcpy(dm, mv, sizeof dm);
  double *rows[3] = {m, m + 3, m + 6}, *drows[3] = {dm, dm + 3, dm + 6};
  double got = __capsule_fwddiff((void *)rows_quad, rows, drows,
                                 capsule_const, 3);
  double want = 0;
  for (int i = 0; i < 9; i++)
    want += mv[i] * check_fd_partial(rows_f, NULL, m, 9, i);
  check_close("row pointers", got, want, CHECK_FD_RTOL, CHECK_FD_ATOL);

  got = __capsule_fwddiff((void *)scratch, x, v);
  want = 0;
  for (int i = 0; i < N; i++)
    want += v[i] * 2 * x[i] *
            (x[(i + 1) % N] * x[(i + 1) % N] +
             x[(i + N - 1) % N] * x[(i + N - 1) % N]);
  check_cf("global scratch", got, want);
  double fdw = 0;
  for (int i = 0; i < N; i++)
    fdw += v[i] * check_fd_partial(scratch_f, NULL, x, N, i);
  check_ref("global scratch", want, fdw);

  double dW[3] = {1.0, 2.0, -0.5};
  check_cf("global passed as dup and named inside",
           __capsule_fwddiff((void *)wsum, W, dW),
           2 * (W[0] * 1.0 + W[1] * 2.0 - W[2] * 0.5));

  gp = x;
  check_cf("global pointer to the dup argument",
           __capsule_fwddiff((void *)via_global, x, v),
           v[0] * x[1] + x[0] * v[1] + v[2]);
  return check_report();
}
