// Reverse vector mode (Enzyme's enzyme_width, N with enzyme_dupv /
// enzyme_dupnoneedv in __enzyme_autodiff): one forward sweep, N reverse
// sweeps' worth of adjoints in lanes. Jacobians of vector-valued functions
// N rows per call, through loops, branches, callees (direct, through
// pointers, recursive), heap blocks (grown by realloc too), stack arrays,
// copies, structs by value, pointers kept in memory and in globals, libm,
// complex arithmetic, active scalar arguments (their N adjoints
// come back as arrays) and an active result (seeded with 1 in every lane).
// References: each lane against a width-1 gradient with that lane's seed
// (checked itself against central differences), and the Jacobian's rows
// against central differences of the function.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

extern int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_dup,
    enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);

#define NP 5 /* parameters */
#define NY 8 /* outputs */

/* What the model keeps between calls: a pointer in a global. */
typedef struct node {
  double weight;
  struct node *next;
} node;
static double *scale_of_model;
static double global_scale[2] = {1.5, -0.5};

__attribute__((noinline)) static double bump(double a, double b) {
  return a > b ? a * b - sin(b) : exp(0.3 * a) + b * b;
}

static double chain(const node *n, int depth) {
  return n ? n->weight * (1 + 0.1 * depth) + chain(n->next, depth + 1) : 0;
}

typedef double (*unary)(double);
static double softplus(double v) { return log1p(exp(v)); }
static double cube(double v) { return v * v * v; }
static unary pick(int k) { return k % 2 ? softplus : cube; }

/* y = model(p): NY outputs of NP parameters. */
static void model(const double *p, double *y) {
  double *work = malloc(sizeof(double) * NY);
  double local[NP];
  memcpy(local, p, sizeof local);
  node nodes[3];
  for (int k = 0; k < 3; ++k) {
    nodes[k].weight = local[k] * local[k + 1];
    nodes[k].next = k < 2 ? &nodes[k + 1] : NULL;
  }
  double c = chain(nodes, 0);
  for (int i = 0; i < NY; ++i) {
    double a = local[i % NP], b = local[(i + 2) % NP];
    work[i] = bump(a, b) + pick(i)(0.5 * a) + c * scale_of_model[i % 2];
    if (i > 0)
      work[i] += fmax(work[i - 1], 0.2 * work[i]);
  }
  for (int i = 0; i < NY; ++i)
    y[i] = tanh(work[i]) + pow(fabs(local[0]) + 1, 0.5 + 0.1 * i);
  free(work);
}

/* One width-1 gradient of lane seed ybar: adds y' ybar to pbar. */
static void vjp(const double *p, double *pbar, const double *ybar) {
  double y[NY], seed[NY];
  memcpy(seed, ybar, sizeof seed);
  __enzyme_autodiff((void *)model, enzyme_dup, p, pbar, enzyme_dup, y, seed);
}

static int output_row;
static double model_output(double *p, void *ctx) {
  (void)ctx;
  double y[NY];
  model(p, y);
  return y[output_row];
}

static void check_width_one(const double *p) {
  for (int i = 0; i < NY; ++i) {
    double ybar[NY] = {0}, pbar[NP] = {0};
    ybar[i] = 1;
    vjp(p, pbar, ybar);
    output_row = i;
    char what[64];
    snprintf(what, sizeof what, "width 1: row %d of the Jacobian", i);
    check_grad_fd(what, pbar, model_output, NULL, p, NP);
  }
}

/* Rows in lanes: the shadows of p and y are W arrays a stride apart. */
#define JACOBIAN_ROWS(W)                                                       \
  static void rows_##W(const double *p, int first) {                          \
    double y[NY], ybar[W][NY], pbar[W][NP];                                    \
    memset(ybar, 0, sizeof ybar);                                              \
    memset(pbar, 0, sizeof pbar);                                              \
    for (int k = 0; k < W; ++k) {                                              \
      ybar[k][(first + k) % NY] = 1;                                           \
      ybar[k][(first + 3 * k + 1) % NY] += 0.5 * k; /* a combination */        \
    }                                                                          \
    double seeds[W][NY];                                                       \
    memcpy(seeds, ybar, sizeof seeds);                                         \
    __enzyme_autodiff((void *)model, enzyme_width, W, enzyme_dupv,             \
                      sizeof(double[NP]), p, pbar, enzyme_dupnoneedv,          \
                      sizeof(double[NY]), y, ybar);                            \
    for (int k = 0; k < W; ++k) {                                              \
      double want[NP] = {0};                                                   \
      vjp(p, want, seeds[k]);                                                  \
      char what[64];                                                           \
      snprintf(what, sizeof what, "width %d lane %d", W, k);                   \
      check_vec_cf(what, pbar[k], want, NP);                                   \
      for (int j = 0; j < NY; ++j) {                                           \
        snprintf(what, sizeof what, "width %d lane %d seed consumed [%d]", W,  \
                 k, j);                                                        \
        check_cf(what, ybar[k][j], 0);                                         \
      }                                                                        \
    }                                                                          \
  }

JACOBIAN_ROWS(2)
JACOBIAN_ROWS(3)
JACOBIAN_ROWS(4)
JACOBIAN_ROWS(8)

/* The whole Jacobian in ceil(NY / 4) calls, against central differences. */
static void jacobian_by_fours(const double *p) {
  double J[NY][NP];
  for (int first = 0; first < NY; first += 4) {
    double y[NY], ybar[4][NY], pbar[4][NP];
    memset(ybar, 0, sizeof ybar);
    memset(pbar, 0, sizeof pbar);
    for (int k = 0; k < 4; ++k)
      ybar[k][first + k] = 1;
    __enzyme_autodiff((void *)model, enzyme_width, 4, enzyme_dupv,
                      sizeof(double[NP]), p, pbar, enzyme_dupv,
                      sizeof(double[NY]), y, ybar);
    for (int k = 0; k < 4; ++k)
      memcpy(J[first + k], pbar[k], sizeof J[0]);
  }
  for (int i = 0; i < NY; ++i) {
    output_row = i;
    char what[64];
    snprintf(what, sizeof what, "Jacobian row %d by fours", i);
    check_grad_fd(what, J[i], model_output, NULL, p, NP);
  }
}

/* Active scalar arguments and an active result. */
static double mixed(double a, const double *x, double *y, double b) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    y[i] = a * x[i] * x[i] + b * sin(x[i]);
    s += y[i] * x[(i + 1) % 3];
  }
  return s * a + exp(b);
}

typedef struct {
  double a[3];
  double b[3];
} scalar_adjoints;
scalar_adjoints __enzyme_autodiff_pair(void *, ...)
    __asm__("__enzyme_autodiff");
typedef struct {
  double a, b;
} pair;
pair __enzyme_autodiff_one(void *, ...) __asm__("__enzyme_autodiff");

static void check_mixed(void) {
  double a = 0.7, b = -0.4, x[3] = {0.2, -1.1, 0.9}, y[3];
  double xbar[3][3] = {{0}}, ybar[3][3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 0}};
  scalar_adjoints got = __enzyme_autodiff_pair(
      (void *)mixed, enzyme_width, 3, enzyme_out, a, enzyme_dupv,
      sizeof(double[3]), x, xbar, enzyme_dupv, sizeof(double[3]), y, ybar, b);
  double seeds[3][3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 0}};
  for (int k = 0; k < 3; ++k) {
    double xk[3] = {0}, yk[3];
    pair one = __enzyme_autodiff_one((void *)mixed, enzyme_out, a, enzyme_dup,
                                     x, xk, enzyme_dup, yk, seeds[k], b);
    char what[64];
    snprintf(what, sizeof what, "mixed lane %d: adjoint of a", k);
    check_cf(what, got.a[k], one.a);
    snprintf(what, sizeof what, "mixed lane %d: adjoint of b", k);
    check_cf(what, got.b[k], one.b);
    snprintf(what, sizeof what, "mixed lane %d: x", k);
    check_vec_cf(what, xbar[k], xk, 3);
  }
}

/* A global the function writes and reads (its shadow global has lanes of
 * its own, zero at each call), a row pointer returned by a callee, a
 * struct holding a pointer copied whole, and a list of heap nodes long
 * enough that the tape spans several chunks. */
static double g_state[3];
typedef struct {
  double *values;
  double factor;
} view;
__attribute__((noinline)) static double *row_of(double *m, int i) {
  return m + 3 * i;
}
static void through_memory(const double *x, double *y, int n) {
  double m[6];
  for (int i = 0; i < 6; ++i)
    m[i] = x[i % 3] * (i + 1);
  for (int i = 0; i < 3; ++i)
    g_state[i] = x[i] * x[(i + 1) % 3];
  view a = {row_of(m, 1), x[0]}, b;
  memcpy(&b, &a, sizeof b);
  node *head = NULL;
  for (int k = 0; k < n; ++k) {
    node *fresh = malloc(sizeof *fresh);
    fresh->weight = sin(x[k % 3] + 1e-3 * k);
    fresh->next = head;
    head = fresh;
  }
  double s = 0;
  while (head) {
    node *next = head->next;
    s = 0.999 * s + head->weight * head->weight;
    free(head);
    head = next;
  }
  y[0] = b.values[0] * b.factor + g_state[1];
  y[1] = b.values[2] * g_state[2] + s;
  y[2] = g_state[0] * s;
}

static int list_length;
static int memory_row;
static double through_memory_output(double *x, void *ctx) {
  (void)ctx;
  double y[3];
  through_memory(x, y, list_length);
  return y[memory_row];
}

static void check_through_memory(int n) {
  double x[3] = {0.6, -0.3, 0.8};
  for (int call = 0; call < 2; ++call) {
    double y[3], xbar[3][3] = {{0}};
    double ybar[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    __enzyme_autodiff((void *)through_memory, enzyme_width, 3, enzyme_dupv,
                      sizeof(double[3]), x, xbar, enzyme_dupv,
                      sizeof(double[3]), y, ybar, enzyme_const, n);
    list_length = n;
    for (int i = 0; i < 3; ++i) {
      memory_row = i;
      char what[80];
      snprintf(what, sizeof what, "through memory, n = %d, call %d, row %d",
               n, call, i);
      check_grad_fd(what, xbar[i], through_memory_output, NULL, x, 3);
    }
  }
}

/* A block grown by realloc, and a struct passed by value (with a pointer
 * field: its copy's shadow holds the lanes' shadows of it). */
typedef struct {
  double a, b, c, d;
  const double *p;
} quad;
__attribute__((noinline)) static double sum_quad(quad q) {
  return q.a * q.b + q.c * q.d + q.p[0] * q.a;
}
static void grows(const double *x, double *y) {
  double *b = malloc(sizeof(double));
  b[0] = x[0];
  for (int k = 1; k < 4; ++k) {
    b = realloc(b, (k + 1) * sizeof(double));
    b[k] = b[k - 1] * x[k % 3] + sin(x[(k + 1) % 3]);
  }
  quad q = {b[1], b[2], x[2], b[3], x + 1};
  double s = sum_quad(q);
  y[0] = s;
  y[1] = b[3] * b[0] + s * x[1];
  y[2] = b[2] - s * s;
  free(b);
}

static int grows_row;
static double grows_output(double *x, void *ctx) {
  (void)ctx;
  double y[3];
  grows(x, y);
  return y[grows_row];
}

static void check_grows(void) {
  double x[3] = {0.5, -0.8, 0.35}, y[3], xbar[3][3] = {{0}};
  double ybar[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_autodiff((void *)grows, enzyme_width, 3, enzyme_dupv,
                    sizeof(double[3]), x, xbar, enzyme_dupv, sizeof(double[3]),
                    y, ybar);
  for (int i = 0; i < 3; ++i) {
    grows_row = i;
    char what[64];
    snprintf(what, sizeof what, "realloc and struct by value, row %d", i);
    check_grad_fd(what, xbar[i], grows_output, NULL, x, 3);
  }
}

/* C99 complex arithmetic and functions. */
static void complex_model(const double *x, double *y) {
  double complex z = x[0] + I * x[1], w = x[2] - 0.5 * I * x[0];
  double complex e = cexp(z * w) / (w + 2.0);
  y[0] = cabs(z * z + w);
  y[1] = creal(e) + cimag(csqrt(z + 3.0));
  y[2] = carg(e) * cimag(clog(w * w + 1.0));
}

static int complex_row;
static double complex_output(double *x, void *ctx) {
  (void)ctx;
  double y[3];
  complex_model(x, y);
  return y[complex_row];
}

static void check_complex(void) {
  double x[3] = {0.4, -0.3, 0.7}, y[3], xbar[3][3] = {{0}};
  double ybar[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_autodiff((void *)complex_model, enzyme_width, 3, enzyme_dupv,
                    sizeof(double[3]), x, xbar, enzyme_dupv,
                    sizeof(double[3]), y, ybar);
  for (int i = 0; i < 3; ++i) {
    complex_row = i;
    char what[64];
    snprintf(what, sizeof what, "complex, row %d", i);
    check_grad_fd(what, xbar[i], complex_output, NULL, x, 3);
  }
}

int main(void) {
  check_complex();
  check_grows();
  check_through_memory(5);
  check_through_memory(20000);
  scale_of_model = global_scale;
  double p[NP] = {0.4, -0.9, 1.3, 0.25, -0.6};
  check_width_one(p);
  rows_2(p, 0);
  rows_3(p, 5);
  rows_4(p, 2);
  rows_8(p, 1);
  jacobian_by_fours(p);
  check_mixed();
  return check_report();
}
