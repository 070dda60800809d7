/*===- ba_bench.h - Bundle adjustment: residuals, Jacobian, check --------===*
 * Shared by ba.c and gradbench/ba.c. GradBench's "ba" residuals
 * (ba_objective.inc); the Jacobian by three reverse-mode gradient calls per
 * observation, checked against complex step.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_BENCH_BA_BENCH_H
#define CAPSULE_BENCH_BA_BENCH_H

#include "bench_util.h"

#define BENCH_BODY "ba_objective.inc"
#include "bench_instantiate.h"

enum { BA_CAM = 11, BA_ROW = BA_CAM + 3 + 1, BA_BLOCK = 2 * BA_ROW + 1 };

typedef struct ba_ctx {
  long n, m, p;
  double *cams, *X, *w, *feats; /* inputs */
  int *obs;                     /* camera and point of each observation */
  double *err, *werr;           /* residuals (primal) */
  double *J; /* per observation: 2 rows of 15 (cam, X, w), then d werr/dw */
} ba_ctx;

static void ba_setup(ba_ctx *c, long n, long m, long p, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->n = bench_opaque(n);
  c->m = bench_opaque(m);
  c->p = bench_opaque(p);
  c->cams = bench_alloc(BA_CAM * n);
  c->X = bench_alloc(3 * m);
  c->w = bench_alloc(p);
  c->feats = bench_alloc(2 * p);
  c->err = bench_alloc(2 * p);
  c->werr = bench_alloc(p);
  c->J = bench_alloc(BA_BLOCK * p);
  c->obs = bench_alloc_ints(2 * p);
  for (long i = 0; i < n; i++) {
    double *cam = c->cams + BA_CAM * i;
    for (int j = 0; j < 3; j++) /* camera 0 keeps a zero rotation */
      cam[j] = i ? 0.2 * bench_normal(&r) : 0.0;
    for (int j = 3; j < 6; j++)
      cam[j] = 0.5 * bench_normal(&r);
    cam[6] = 400.0 + 50.0 * bench_uniform(&r);
    cam[7] = 2.0 * bench_normal(&r);
    cam[8] = 2.0 * bench_normal(&r);
    cam[9] = 1e-3 * bench_normal(&r);
    cam[10] = 1e-5 * bench_normal(&r);
  }
  for (long i = 0; i < m; i++) {
    c->X[3 * i] = 2.0 * bench_normal(&r);
    c->X[3 * i + 1] = 2.0 * bench_normal(&r);
    c->X[3 * i + 2] = 8.0 + 4.0 * bench_uniform(&r);
  }
  for (long i = 0; i < p; i++) {
    c->obs[2 * i] = i < n ? (int)i : (int)bench_index(&r, n);
    c->obs[2 * i + 1] = i < m ? (int)i : (int)bench_index(&r, m);
    c->w[i] = 0.5 + bench_uniform(&r);
    c->feats[2 * i] = 100.0 * bench_normal(&r);
    c->feats[2 * i + 1] = 100.0 * bench_normal(&r);
  }
}

static void ba_free(ba_ctx *c) {
  free(c->cams);
  free(c->X);
  free(c->w);
  free(c->feats);
  free(c->obs);
  free(c->err);
  free(c->werr);
  free(c->J);
}

static const double *ba_cam(const ba_ctx *c, long i) {
  return c->cams + BA_CAM * c->obs[2 * i];
}

static const double *ba_point(const ba_ctx *c, long i) {
  return c->X + 3 * c->obs[2 * i + 1];
}

static void ba_primal(void *v) {
  ba_ctx *c = v;
  for (long i = 0; i < c->p; i++) {
    ba_reproj_error(ba_cam(c, i), ba_point(c, i), &c->w[i], &c->feats[2 * i],
                    &c->err[2 * i]);
    ba_weight_error(&c->w[i], &c->werr[i]);
  }
  bench_sink = c->err[0];
}

/* Observation i's block of the Jacobian: one gradient call per row, the
 * row's residual seeded with 1. */
static void ba_jacobian_block(const ba_ctx *c, long i, double *J) {
  for (int row = 0; row < 2; row++) {
    double d_cam[BA_CAM] = {0}, d_X[3] = {0}, d_w = 0, err[2];
    double d_err[2] = {row == 0, row == 1};
    BENCH_AUTODIFF((void *)ba_reproj_error,
                   BENCH_DUP, ba_cam(c, i), d_cam,
                   BENCH_DUP, ba_point(c, i), d_X,
                   BENCH_DUP, &c->w[i], &d_w,
                   BENCH_CONST, &c->feats[2 * i],
                   BENCH_DUPNONEED, err, d_err);
    double *out = J + row * BA_ROW;
    memcpy(out, d_cam, sizeof d_cam);
    memcpy(out + BA_CAM, d_X, sizeof d_X);
    out[BA_CAM + 3] = d_w;
  }
  double d_w = 0, werr, d_werr = 1;
  BENCH_AUTODIFF((void *)ba_weight_error,
                 BENCH_DUP, &c->w[i], &d_w,
                 BENCH_DUPNONEED, &werr, &d_werr);
  J[2 * BA_ROW] = d_w;
}

static void ba_jacobian(void *v) {
  ba_ctx *c = v;
  for (long i = 0; i < c->p; i++)
    ba_jacobian_block(c, i, c->J + BA_BLOCK * i);
}

/* Row `row` (2: the weight row) of observation i's residuals by complex
 * step in input `col` (0-10 camera, 11-13 point, 14 weight), and by central
 * differences. */
static void ba_reference(const ba_ctx *c, long i, int row, int col,
                         double *cs, double *fd) {
  double complex in[BA_ROW], err[2];
  double plain[BA_ROW], plus[2], minus[2];
  for (int j = 0; j < BA_ROW; j++) {
    plain[j] = j < BA_CAM       ? ba_cam(c, i)[j]
               : j < BA_CAM + 3 ? ba_point(c, i)[j - BA_CAM]
                                : c->w[i];
    in[j] = plain[j];
  }
  in[col] = bench_cplx(plain[col], BENCH_CS_STEP);
  if (row == 2)
    ba_weight_error_cs(in + BA_CAM + 3, err);
  else
    ba_reproj_error_cs(in, in + BA_CAM, in + BA_CAM + 3, &c->feats[2 * i],
                       err);
  *cs = cimag(err[row == 2 ? 0 : row]) / BENCH_CS_STEP;
  double h = bench_rel_step(plain[col], 1e-6), keep = plain[col];
  plain[col] = keep + h;
  if (row == 2)
    ba_weight_error(plain + BA_CAM + 3, plus);
  else
    ba_reproj_error(plain, plain + BA_CAM, plain + BA_CAM + 3,
                    &c->feats[2 * i], plus);
  plain[col] = keep - h;
  if (row == 2)
    ba_weight_error(plain + BA_CAM + 3, minus);
  else
    ba_reproj_error(plain, plain + BA_CAM, plain + BA_CAM + 3,
                    &c->feats[2 * i], minus);
  *fd = (plus[row == 2 ? 0 : row] - minus[row == 2 ? 0 : row]) / (2 * h);
}

/* Every entry of six observations' blocks: the first (camera 0, zero
 * rotation), the last and four random ones. */
static int ba_verify(ba_ctx *c, const char *label) {
  static const char *const rows[3] = {"J.err0", "J.err1", "J.werr"};
  bench_rng r = bench_rng_seed(7);
  long picks[6];
  int npicks = bench_pick(&r, c->p, picks, 4);
  int fails = 0;
  ba_jacobian(c);
  for (int k = 0; k < npicks; k++) {
    long i = picks[k];
    bench_sample s[BA_BLOCK];
    int ns = 0;
    for (int row = 0; row < 3; row++)
      for (int col = row == 2 ? BA_CAM + 3 : 0; col < BA_ROW; col++) {
        s[ns].array = rows[row];
        /* the weight row has one entry, d werr / dw, at 2 * BA_ROW */
        s[ns].index = BA_BLOCK * i + row * BA_ROW + (row == 2 ? 0 : col);
        s[ns].ad = c->J[s[ns].index];
        ba_reference(c, i, row, col, &s[ns].ref, &s[ns].fd);
        ns++;
      }
    char name[128];
    snprintf(name, sizeof name, "%s, observation %ld (camera %d)", label, i,
             c->obs[2 * i]);
    fails += bench_verify(name, s, ns, 1e-9);
  }
  return fails;
}

#endif /* CAPSULE_BENCH_BA_BENCH_H */
