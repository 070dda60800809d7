// Forward vector mode (Enzyme's enzyme_width): N tangents per call through enzyme_dupv (shadows a stride apart), enzyme_dup with N shadows, N tangents of double arguments, and the result's N tangents as a struct; a whole Jacobian in ceil(n/N) calls. Through loops, branches, recursion, calls through pointers, libm, the heap (malloc, realloc, free), memcpy and memset, stack arrays, structs by value (dup and const), pointers into constant data stored beside active values, globals (named, set to the argument, passed as the argument), float, and enzyme_primal_return. Each lane against a width-1 call with the same seed, and the Jacobian against finite differences, at -O0 to -O3.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width, enzyme_dupv,
    enzyme_dupnoneedv, enzyme_primal_return, enzyme_dup_return;

#define W 4
typedef struct {
  double d[W];
} lanes;
typedef struct {
  float d[W];
} float_lanes;

double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddiff_f(void *, ...);
lanes __enzyme_fwddiff_lanes(void *, ...);
float_lanes __enzyme_fwddiff_flanes(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

// ---- A vector function with loops, branches, the heap and libm ----------
#define NX 10
#define NY 7

static double smooth(double v) { return v > 0 ? v * v : -0.5 * v; }

static void model(const double *x, double *y) {
  double *work = malloc(4 * sizeof(double));
  int size = 4;
  for (int i = 0; i < NX; i++) {
    if (i >= size) {
      size *= 2;
      work = realloc(work, size * sizeof(double));
    }
    work[i] = exp(0.3 * x[i]) + smooth(x[(i + 3) % NX]);
  }
  double local[NY];
  memset(local, 0, sizeof local);
  for (int j = 0; j < NY; j++)
    for (int i = j; i < NX; i += 2)
      local[j] += sin(work[i]) * x[(i + j) % NX];
  memcpy(y, local, sizeof local);
  free(work);
}

static void model_fd(double *x, double *y, void *ctx) {
  (void)ctx;
  model(x, y);
}

static void jacobian_by_columns(void) {
  double x[NX], seeds[NX][NX], y[NY], jac[NX][NY];
  for (int i = 0; i < NX; i++) {
    x[i] = 0.1 * i - 0.35;
    for (int k = 0; k < NX; k++)
      seeds[i][k] = i == k;
  }
  // Columns i .. i + W - 1 in one call; the seeds of the lanes past the
  // last column are zero rows, and their tangents zero.
  double padded[NX + W][NX], cols[NX + W][NY];
  memset(padded, 0, sizeof padded);
  memcpy(padded, seeds, sizeof seeds);
  for (int i = 0; i < NX; i += W)
    __enzyme_fwddiff_v((void *)model, enzyme_width, W, enzyme_dupv,
                       sizeof(padded[0]), x, padded[i], enzyme_dupnoneedv,
                       sizeof(cols[0]), y, cols[i]);
  for (int i = 0; i < NX; i++) {
    memcpy(jac[i], cols[i], sizeof jac[i]);
    check_jvp_fd("jacobian column", jac[i], model_fd, NULL, x, seeds[i], NX,
                 NY);
    // The same column from a width-1 call.
    double one[NY], dx[NX];
    memcpy(dx, seeds[i], sizeof dx);
    __enzyme_fwddiff_v((void *)model, x, dx, y, one);
    for (int j = 0; j < NY; j++)
      check_close("lane equals width 1", jac[i][j], one[j], 1e-13, 1e-15);
  }
  for (int j = NX; j < NX + W; j++)
    if (j < ((NX + W - 1) / W) * W)
      for (int k = 0; k < NY; k++)
        check_cf("padding lane", cols[j][k], 0.0);
}

// ---- Scalars, recursion, calls through pointers, results ---------------
static double power_tower(double a, int n) {
  return n == 0 ? a : a * power_tower(sin(a), n - 1);
}
static double op_square(double v) { return v * v; }
static double op_log1p(double v) { return log1p(v * v); }
static double (*const ops[2])(double) = {op_square, op_log1p};

static double scalars(double a, double b, int which) {
  double t = power_tower(a, 3) + ops[which & 1](b) * pow(fabs(a), 1.5);
  return fmax(t, b) + atan2(a, b);
}

static void scalar_lanes(void) {
  double a = 0.7, b = -1.3;
  double da[W] = {1, 0, 0.5, -2}, db[W] = {0, 1, 0.25, 3};
  for (int which = 0; which < 2; which++) {
    lanes t = __enzyme_fwddiff_lanes((void *)scalars, enzyme_width, W, a,
                                     da[0], da[1], da[2], da[3], b, db[0],
                                     db[1], db[2], db[3], enzyme_const, which);
    for (int k = 0; k < W; k++)
      check_close("scalar lane", t.d[k],
                  __enzyme_fwddiff((void *)scalars, a, da[k], b, db[k],
                                   enzyme_const, which),
                  1e-13, 1e-15);
  }
}

typedef struct {
  double value;
  double d[W];
} value_lanes;
value_lanes __enzyme_fwddiff_vl(void *, ...);

static void primal_and_lanes(void) {
  double x[3] = {0.5, 1.5, -0.25};
  double dx[W][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  value_lanes r = __enzyme_fwddiff_vl(
      (void *)power_tower, enzyme_width, W, enzyme_primal_return,
      enzyme_dup_return, x[1], dx[0][1], dx[1][1], dx[2][1], dx[3][1],
      enzyme_const, 2);
  check_cf("primal with lanes: value", r.value, power_tower(x[1], 2));
  for (int k = 0; k < W; k++)
    check_close("primal with lanes: lane", r.d[k],
                __enzyme_fwddiff((void *)power_tower, x[1], dx[k][1],
                                 enzyme_const, 2),
                1e-13, 1e-15);
}

// ---- Structs by value, constant tables, float ----------------------------
typedef struct {
  double pos[2];
  double mass;
} body;

static double energy(body b, body c) {
  double dx = b.pos[0] - c.pos[0], dy = b.pos[1] - c.pos[1];
  b.mass *= 1.5; // the callee's own copy
  return b.mass * c.mass / sqrt(dx * dx + dy * dy + 0.1);
}

static void struct_lanes(void) {
  body b = {{0.5, -1.0}, 2.0}, c = {{1.5, 0.25}, 3.0};
  body db[W] = {{{1, 0}, 0}, {{0, 1}, 0}, {{0, 0}, 1}, {{0.5, 0.5}, 0.5}};
  body keep[W];
  memcpy(keep, db, sizeof db);
  lanes t = __enzyme_fwddiff_lanes((void *)energy, enzyme_width, W, enzyme_dup,
                                   b, &db[0], &db[1], &db[2], &db[3],
                                   enzyme_const, c);
  for (int k = 0; k < W; k++) {
    body one = keep[k];
    check_close("struct lane", t.d[k],
                __enzyme_fwddiff((void *)energy, enzyme_dup, b, &one,
                                 enzyme_const, c),
                1e-13, 1e-15);
    check_cf("caller's shadow untouched", db[k].mass, keep[k].mass);
  }
}

static const double weights[3] = {0.5, -1.25, 2.0};
typedef struct {
  const double *w;
  double v;
} node;

static double table_walk(const double *x) {
  node nodes[3];
  for (int i = 0; i < 3; i++) {
    nodes[i].w = &weights[i];
    nodes[i].v = x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += *nodes[i].w * nodes[i].v;
  return s;
}

static void table_lanes(void) {
  double x[3] = {0.3, -0.7, 1.1};
  double dx[W][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, -1, 1}};
  lanes t = __enzyme_fwddiff_lanes((void *)table_walk, enzyme_width, W,
                                   enzyme_dupv, sizeof dx[0], x, dx[0]);
  for (int k = 0; k < W; k++) {
    double want = 0;
    for (int i = 0; i < 3; i++)
      want += weights[i] * 2 * x[i] * dx[k][i];
    check_cf("pointers into constant data", t.d[k], want);
  }
}

// ---- Globals: scratch named in the code, a global pointer set to the
// argument, and a global passed as the dup argument itself -----------------
static double scratch[4];
static double *current;
static double state[3] = {0.5, -0.25, 1.0};

static double through_globals(double *p) {
  current = p;
  for (int i = 0; i < 3; i++)
    scratch[i] = sin(current[i]) * state[i];
  state[0] = scratch[0] + scratch[1] * scratch[2];
  return state[0] * p[2] + scratch[2];
}

static void global_lanes(void) {
  double x[3] = {0.4, -1.1, 0.9};
  double dx[W][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.5, 0.5, -1}};
  double saved[3];
  memcpy(saved, state, sizeof saved);
  lanes t = __enzyme_fwddiff_lanes((void *)through_globals, enzyme_width, W,
                                   enzyme_dupv, sizeof dx[0], x, dx[0]);
  for (int k = 0; k < W; k++) {
    memcpy(state, saved, sizeof saved);
    double one[3];
    memcpy(one, dx[k], sizeof one);
    check_close("globals: lane", t.d[k],
                __enzyme_fwddiff((void *)through_globals, x, one), 1e-13,
                1e-15);
  }
  // The global itself as the dup argument: its lanes' shadows are the
  // user's, also where the code names it.
  memcpy(state, saved, sizeof saved);
  double ds[W][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  lanes g = __enzyme_fwddiff_lanes((void *)through_globals, enzyme_width, W,
                                   enzyme_dup, state, ds[0], ds[1], ds[2],
                                   ds[3]);
  for (int k = 0; k < W; k++) {
    memcpy(state, saved, sizeof saved);
    double one[3] = {k == 0 || k == 3, k == 1 || k == 3, k == 2 || k == 3};
    check_close("global as the argument: lane", g.d[k],
                __enzyme_fwddiff((void *)through_globals, state, one), 1e-13,
                1e-15);
  }
}

// A local array of pointers initialised from constants (clang copies it
// from a constant global, with 16-byte alignment), one pointing at the
// argument: each lane's copy keeps the alignment (the fuzzer's seed 2007).
static double table_a[2] = {1.0, 2.0}, table_b[2] = {3.0, -1.0},
              table_c[2] = {0.5, 4.0};

static double row_walk(const double *x) {
  double *rows[3] = {table_a, table_b, table_c};
  rows[1] = (double *)x;
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += rows[i][0] * rows[i][1] * sin(x[i]);
  return s;
}

static void aligned_copies(void) {
  double x[3] = {0.3, 0.8, -0.4};
  double dx[W][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.5, -1, 2}};
  lanes t = __enzyme_fwddiff_lanes((void *)row_walk, enzyme_width, W,
                                   enzyme_dupv, sizeof dx[0], x, dx[0]);
  for (int k = 0; k < W; k++) {
    double one[3];
    memcpy(one, dx[k], sizeof one);
    check_close("aligned copies: lane", t.d[k],
                __enzyme_fwddiff((void *)row_walk, x, one), 1e-13, 1e-15);
  }
}

static float cubic(float v, float w) { return v * v * v - w * v; }

static void float_lanes_test(void) {
  float_lanes t = __enzyme_fwddiff_flanes((void *)cubic, enzyme_width, W,
                                          1.5f, 1.0f, 0.0f, 2.0f, 1.0f, 0.5f,
                                          0.0f, 1.0f, 0.0f, 1.0f);
  float dv[W] = {1, 0, 2, 1}, dw[W] = {0, 1, 0, 1};
  for (int k = 0; k < W; k++)
    check_close("float lane", t.d[k],
                (3 * 1.5 * 1.5 - 0.5) * dv[k] - 1.5 * dw[k], CHECK_FLOAT_RTOL,
                CHECK_FLOAT_ATOL);
}

int main(void) {
  jacobian_by_columns();
  scalar_lanes();
  primal_and_lanes();
  struct_lanes();
  table_lanes();
  global_lanes();
  aligned_copies();
  float_lanes_test();
  return check_report();
}
