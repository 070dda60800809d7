/*===- ht.c - GradBench ht: hand tracking Jacobian ------------------------===*
 *
 * GradBench's "ht" task (ADBench's "hand"), simple variant: the residuals
 * of ht_objective.inc, each data point minus the skinned vertex it
 * corresponds to (3 per point), for a hand posed by theta (26 values:
 * global angle-axis rotation and translation, 4 angles per finger), and
 * their Jacobian with respect to theta, 3 npts rows by 26 columns.
 *
 * Size: GradBench's first simple instance, hand1_t26_c100 (100 points)
 * with the small model's size: 22 bones (wrist, 4 per finger, forearm, with
 * ADBench's hierarchy) and 544 vertices. The model files cannot be used, so
 * the model is synthetic and deterministic (bench_rng): rigid base
 * transforms that lay out a palm and five fingers (knuckles spread across
 * the palm, phalanges along each bone's y axis, small random twists), the
 * inverse base absolutes computed from them, each vertex on a cylinder
 * around one bone, weighted to that bone, its parent near the joint, its
 * child near the far end and a little to a random bone, normalised per
 * vertex. is_mirrored is false, as GradBench's loader sets it; the simple
 * variant does not use the triangles, so there are none. Lengths are in
 * metres (fingers of about 11 to 16 cm). theta is drawn like the
 * instance's: the angle-axis components standard normal, the translation
 * N(0, 0.5^2), the finger angles N(0, 0.8^2); the correspondences are
 * uniform vertices and the points are the skinned vertices of a nearby pose
 * (theta + N(0, 0.1^2)) plus 5 mm of noise.
 *
 * Derivative: forward mode, one __enzyme_fwddiff call per column, theta's
 * tangent the column's unit vector and the residuals' tangent written
 * straight into the column (the Jacobian is column-major). 26 tangents
 * against 300 rows for reverse mode: forward mode is the cheaper side, and
 * it is what GradBench's Enzyme tool does.
 *
 * Check, before anything is timed: the whole Jacobian against complex step
 * (one complex evaluation per column gives the whole column), to 1e-9
 * relative (bench_verify's measure: entries below 1/1000 of the largest
 * one are measured against that); printed for the first and last entries,
 * each column's largest entry and random ones, with central differences.
 * The complex instance must also reproduce the residuals bit for bit.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

/* void ht_objective(...) and void ht_objective_cs(...). */
#define BENCH_BODY "gradbench/ht_objective.inc"
#include "bench_instantiate.h"

enum { HT_THETA = 26, HT_BONES = 22, HT_FOREARM = 21 };

typedef struct ht_ctx {
  int nbones, nverts, npts, is_mirrored;
  int *parents, *correspondences;
  double *base_relatives, *inverse_base_absolutes; /* 16 per bone */
  double *base_positions;                         /* 4 per vertex */
  double *weights;                                /* bone-major */
  double *points;                                 /* 3 per point */
  double theta[HT_THETA], d_theta[HT_THETA];
  double *err;     /* residuals (the primal) */
  double *scratch; /* the residuals' primal in a tangent call (dupnoneed) */
  double *J;       /* column-major: J[col * 3 npts + row] */
} ht_ctx;

/*--- the synthetic model ---------------------------------------------------*/

/* Rigid 4x4 transform [R t; 0 1] from Euler angles (x, z, y) and t. */
static void ht_rigid(double ax, double az, double ay, const double *t,
                     double *T) {
  double xzy[3] = {ax, az, ay}, R[9];
  ht_euler_to_rotation(xzy, R);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      T[4 * i + j] = R[3 * i + j];
    T[4 * i + 3] = t[i];
  }
  T[12] = T[13] = T[14] = 0.0;
  T[15] = 1.0;
}

/* The inverse of a rigid transform: [R^T, -R^T t; 0 1]. */
static void ht_rigid_inverse(const double *T, double *out) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      out[4 * i + j] = T[4 * j + i];
    out[4 * i + 3] = -(T[i] * T[3] + T[4 + i] * T[7] + T[8 + i] * T[11]);
  }
  out[12] = out[13] = out[14] = 0.0;
  out[15] = 1.0;
}

/* Bones: 0 the wrist (the root, the palm's frame), 1 + 4 f .. 4 + 4 f the
 * bones of finger f (thumb first), each the child of the one before and
 * the first of the wrist, 21 the forearm, a child of the wrist. Each bone's
 * base relative moves its parent's frame to the bone's joint and gives it
 * a small twist; len[b] is how far the bone reaches along its y axis (the
 * next joint), rad[b] its thickness. */
static void ht_bones(ht_ctx *c, bench_rng *r, double *len, double *rad) {
  static const double reach[4] = {0.06, 0.04, 0.028, 0.02};
  double twist = 0.05;
  for (int b = 0; b < HT_BONES; b++) {
    double t[3] = {0, 0, 0}, ax = twist * bench_normal(r),
           az = twist * bench_normal(r), ay = twist * bench_normal(r);
    if (b == 0) {
      c->parents[b] = -1;
      len[b] = 0.07;
      rad[b] = 0.025;
    } else if (b == HT_FOREARM) {
      c->parents[b] = 0;
      t[1] = -0.01;
      len[b] = -0.12; /* reaches away from the fingers */
      rad[b] = 0.03;
    } else {
      int finger = (b - 1) / 4, k = (b - 1) % 4;
      double scale = (finger == 0 ? 0.8 : 1.0) * (0.9 + 0.2 * bench_uniform(r));
      c->parents[b] = k == 0 ? 0 : b - 1;
      len[b] = scale * reach[k];
      rad[b] = 0.012 - 0.002 * k;
      if (k == 0) { /* the knuckle's place in the palm, spread */
        t[0] = finger == 0 ? -0.03 : -0.024 + 0.016 * (finger - 1);
        t[1] = finger == 0 ? 0.0 : 0.01;
        az += finger == 0 ? 0.6 : 0.15 - 0.1 * (finger - 1);
      } else {
        t[1] = len[b - 1];
      }
    }
    ht_rigid(ax, az, ay, t, &c->base_relatives[16 * b]);
  }
}

/* Vertex v on a cylinder around its home bone, in the model's frame; its
 * weights: the home bone, its parent near the joint, its child near the far
 * end, a little to a random bone; normalised. */
static void ht_vertex(ht_ctx *c, bench_rng *r, int v, const double *absolutes,
                      const double *len, const double *rad) {
  int b = v % c->nbones;
  double frac = bench_uniform(r), phi = 2.0 * BENCH_PI * bench_uniform(r);
  double rr = rad[b] * (0.8 + 0.4 * bench_uniform(r));
  double local[4] = {rr * cos(phi), frac * len[b], rr * sin(phi), 1.0};
  const double *A = &absolutes[16 * b];
  for (int i = 0; i < 4; i++)
    c->base_positions[4 * v + i] = A[4 * i] * local[0] +
                                   A[4 * i + 1] * local[1] +
                                   A[4 * i + 2] * local[2] + A[4 * i + 3];
  long nv = c->nverts;
  int child = b >= 1 && b < HT_FOREARM && (b - 1) % 4 < 3 ? b + 1 : -1;
  c->weights[b * nv + v] += 1.0;
  if (c->parents[b] >= 0)
    c->weights[c->parents[b] * nv + v] += 0.6 * (1 - frac) * (1 - frac);
  if (child >= 0)
    c->weights[child * nv + v] += 0.6 * frac * frac;
  c->weights[bench_index(r, c->nbones) * nv + v] += 0.05 * bench_uniform(r);
  double sum = 0;
  for (int k = 0; k < c->nbones; k++)
    sum += c->weights[k * nv + v];
  for (int k = 0; k < c->nbones; k++)
    c->weights[k * nv + v] /= sum;
}

static void ht_model(ht_ctx *c, bench_rng *r) {
  double len[HT_BONES], rad[HT_BONES], absolutes[16 * HT_BONES];
  ht_bones(c, r, len, rad);
  ht_relatives_to_absolutes(c->nbones, c->parents, c->base_relatives,
                            absolutes);
  for (int b = 0; b < c->nbones; b++)
    ht_rigid_inverse(&absolutes[16 * b], &c->inverse_base_absolutes[16 * b]);
  for (int v = 0; v < c->nverts; v++)
    ht_vertex(c, r, v, absolutes, len, rad);
}

/* Points: the corresponded vertices skinned in a pose near theta, plus 5 mm
 * of noise. */
static void ht_points(ht_ctx *c, bench_rng *r) {
  double near[HT_THETA];
  for (int i = 0; i < HT_THETA; i++)
    near[i] = c->theta[i] + 0.1 * bench_normal(r);
  /* with the points at zero the residuals are minus the vertices */
  memset(c->points, 0, sizeof(double) * 3 * (size_t)c->npts);
  ht_objective(c->nbones, c->nverts, c->npts, c->parents, c->base_relatives,
               c->inverse_base_absolutes, c->base_positions, c->weights,
               c->is_mirrored, c->correspondences, c->points, near, c->err);
  for (int i = 0; i < 3 * c->npts; i++)
    c->points[i] = -c->err[i] + 0.005 * bench_normal(r);
}

static void ht_setup(ht_ctx *c, int nverts, int npts, uint64_t seed) {
  bench_rng r = bench_rng_seed(seed);
  c->nbones = (int)bench_opaque(HT_BONES);
  c->nverts = (int)bench_opaque(nverts);
  c->npts = (int)bench_opaque(npts);
  c->is_mirrored = (int)bench_opaque(0);
  c->parents = bench_alloc_ints(HT_BONES);
  c->correspondences = bench_alloc_ints(npts);
  c->base_relatives = bench_alloc(16 * HT_BONES);
  c->inverse_base_absolutes = bench_alloc(16 * HT_BONES);
  c->base_positions = bench_alloc(4L * nverts);
  c->weights = bench_alloc((long)HT_BONES * nverts);
  c->points = bench_alloc(3L * npts);
  c->err = bench_alloc(3L * npts);
  c->scratch = bench_alloc(3L * npts);
  c->J = bench_alloc(3L * npts * HT_THETA);
  ht_model(c, &r);

  for (int i = 0; i < 3; i++) { /* global rotation, translation */
    c->theta[i] = bench_normal(&r);
    c->theta[3 + i] = 0.5 * bench_normal(&r);
  }
  for (int i = 6; i < HT_THETA; i++)
    c->theta[i] = 0.8 * bench_normal(&r);
  memset(c->d_theta, 0, sizeof c->d_theta);
  for (int i = 0; i < npts; i++)
    c->correspondences[i] = (int)bench_index(&r, nverts);
  ht_points(c, &r);
}

static void ht_free(ht_ctx *c) {
  free(c->parents);
  free(c->correspondences);
  free(c->base_relatives);
  free(c->inverse_base_absolutes);
  free(c->base_positions);
  free(c->weights);
  free(c->points);
  free(c->err);
  free(c->scratch);
  free(c->J);
}

/*--- the timed functions ---------------------------------------------------*/

static void ht_primal(void *p) {
  ht_ctx *c = p;
  ht_objective(c->nbones, c->nverts, c->npts, c->parents, c->base_relatives,
               c->inverse_base_absolutes, c->base_positions, c->weights,
               c->is_mirrored, c->correspondences, c->points, c->theta,
               c->err);
  bench_sink = c->err[0];
}

/* Column `col` of the Jacobian: one tangent along theta's unit vector col;
 * the residuals' tangent is the column (dupnoneed: their primal is not
 * needed, it goes to a scratch buffer). */
static void ht_jacobian_column(ht_ctx *c, int col) {
  c->d_theta[col] = 1.0;
  __enzyme_fwddiff((void *)ht_objective,
                   enzyme_const, c->nbones,
                   enzyme_const, c->nverts,
                   enzyme_const, c->npts,
                   enzyme_const, c->parents,
                   enzyme_const, c->base_relatives,
                   enzyme_const, c->inverse_base_absolutes,
                   enzyme_const, c->base_positions,
                   enzyme_const, c->weights,
                   enzyme_const, c->is_mirrored,
                   enzyme_const, c->correspondences,
                   enzyme_const, c->points,
                   enzyme_dup, c->theta, c->d_theta,
                   enzyme_dupnoneed, c->scratch,
                   c->J + (long)col * 3 * c->npts);
  c->d_theta[col] = 0.0;
}

static void ht_jacobian(void *p) {
  ht_ctx *c = p;
  for (int col = 0; col < HT_THETA; col++)
    ht_jacobian_column(c, col);
}

/*--- the check -------------------------------------------------------------*/

/* Column `col` of the Jacobian by complex step (cs) and by central
 * differences (fd), each 3 npts long. */
static void ht_reference_column(ht_ctx *c, int col, double *cs, double *fd) {
  long rows = 3L * c->npts;
  double complex ctheta[HT_THETA];
  double complex *cerr = bench_alloc_complex(rows);
  double *plus = bench_alloc(rows), *minus = bench_alloc(rows);
  for (int i = 0; i < HT_THETA; i++)
    ctheta[i] = c->theta[i];
  ctheta[col] = bench_cplx(c->theta[col], BENCH_CS_STEP);
  ht_objective_cs(c->nbones, c->nverts, c->npts, c->parents,
                  c->base_relatives, c->inverse_base_absolutes,
                  c->base_positions, c->weights, c->is_mirrored,
                  c->correspondences, c->points, ctheta, cerr);
  for (long i = 0; i < rows; i++)
    cs[i] = cimag(cerr[i]) / BENCH_CS_STEP;

  double theta[HT_THETA], keep = c->theta[col];
  double h = bench_rel_step(keep, 1e-6);
  memcpy(theta, c->theta, sizeof theta);
  theta[col] = keep + h;
  ht_objective(c->nbones, c->nverts, c->npts, c->parents, c->base_relatives,
               c->inverse_base_absolutes, c->base_positions, c->weights,
               c->is_mirrored, c->correspondences, c->points, theta, plus);
  theta[col] = keep - h;
  ht_objective(c->nbones, c->nverts, c->npts, c->parents, c->base_relatives,
               c->inverse_base_absolutes, c->base_positions, c->weights,
               c->is_mirrored, c->correspondences, c->points, theta, minus);
  for (long i = 0; i < rows; i++)
    fd[i] = (plus[i] - minus[i]) / (2 * h);
  free(cerr);
  free(plus);
  free(minus);
}

/* The complex instance must reproduce the residuals bit for bit, or the
 * reference would not follow the differentiated code's path. */
static int ht_verify_primal(ht_ctx *c, const char *label) {
  long rows = 3L * c->npts;
  double complex ctheta[HT_THETA];
  double complex *cerr = bench_alloc_complex(rows);
  for (int i = 0; i < HT_THETA; i++)
    ctheta[i] = c->theta[i];
  ht_primal(c);
  ht_objective_cs(c->nbones, c->nverts, c->npts, c->parents,
                  c->base_relatives, c->inverse_base_absolutes,
                  c->base_positions, c->weights, c->is_mirrored,
                  c->correspondences, c->points, ctheta, cerr);
  long differ = 0;
  double sq = 0;
  for (long i = 0; i < rows; i++) {
    differ += creal(cerr[i]) != c->err[i];
    sq += c->err[i] * c->err[i];
  }
  free(cerr);
  printf("verify %s: residual norm %.6g; the complex instance reproduces "
         "%ld of %ld residuals bit for bit%s\n",
         label, sqrt(sq), rows - differ, rows, differ ? "   <-- FAIL" : "");
  return differ != 0;
}

/* Adds sample (row, col) to s. */
static void ht_sample(bench_sample *s, int *ns, const char *const *names,
                      long rows, const double *J, const double *cs,
                      const double *fd, long row, int col) {
  long at = (long)col * rows + row;
  s[*ns].array = names[col];
  s[*ns].index = row;
  s[*ns].ad = J[at];
  s[*ns].ref = cs[at];
  s[*ns].fd = fd[at];
  (*ns)++;
}

/* The whole Jacobian against complex step, by bench_verify's measure and
 * tolerance; the printed samples: the first and last entries, each
 * column's largest entry (so that no column is checked only where it is
 * zero) and 8 random ones. */
static int ht_verify(void *p) {
  enum { RANDOM = 8, MAXS = 2 + HT_THETA + RANDOM };
  const double tol = 1e-9;
  ht_ctx *c = p;
  long rows = 3L * c->npts;
  char label[96];
  snprintf(label, sizeof label, "ht bones=%d verts=%d c=%d", c->nbones,
           c->nverts, c->npts);
  int fails = ht_verify_primal(c, label);

  static char name_buf[HT_THETA][16];
  const char *names[HT_THETA];
  for (int col = 0; col < HT_THETA; col++) {
    snprintf(name_buf[col], sizeof name_buf[col], "J.theta%d", col);
    names[col] = name_buf[col];
  }
  double *cs = bench_alloc(rows * HT_THETA), *fd = bench_alloc(rows * HT_THETA);
  for (long i = 0; i < rows * HT_THETA; i++)
    c->J[i] = NAN; /* every entry must be written */
  ht_jacobian(c);
  for (int col = 0; col < HT_THETA; col++)
    ht_reference_column(c, col, cs + (long)col * rows, fd + (long)col * rows);

  bench_sample s[MAXS];
  int ns = 0;
  bench_rng r = bench_rng_seed(0x68742d636865636bULL);
  ht_sample(s, &ns, names, rows, c->J, cs, fd, 0, 0);
  ht_sample(s, &ns, names, rows, c->J, cs, fd, rows - 1, HT_THETA - 1);
  for (int col = 0; col < HT_THETA; col++) {
    long best = 0;
    for (long row = 1; row < rows; row++)
      if (fabs(cs[(long)col * rows + row]) > fabs(cs[(long)col * rows + best]))
        best = row;
    ht_sample(s, &ns, names, rows, c->J, cs, fd, best, col);
  }
  for (int k = 0; k < RANDOM; k++)
    ht_sample(s, &ns, names, rows, c->J, cs, fd, bench_index(&r, rows),
              (int)bench_index(&r, HT_THETA));
  fails += bench_verify(label, s, ns, tol);

  /* Every entry, by the same measure, against the largest one overall. */
  double maxref = 0, worst = 0;
  long bad = 0, worst_at = 0;
  for (long i = 0; i < rows * HT_THETA; i++)
    maxref = fabs(cs[i]) > maxref ? fabs(cs[i]) : maxref;
  for (long i = 0; i < rows * HT_THETA; i++) {
    double denom = fabs(cs[i]) > 1e-3 * maxref ? fabs(cs[i]) : 1e-3 * maxref;
    double rel = fabs(c->J[i] - cs[i]) / denom;
    if (!(rel <= tol) || !isfinite(c->J[i])) {
      bad++;
      rel = isfinite(rel) ? rel : INFINITY;
    }
    if (!(rel <= worst)) {
      worst = rel;
      worst_at = i;
    }
  }
  printf("verify %s: all %ld entries against complex step: largest error "
         "%.2e (row %ld, column %ld), %ld over %.0e: %s\n",
         label, rows * HT_THETA, worst, worst_at % rows, worst_at / rows, bad,
         tol, bad || !(maxref > 0) ? "FAILED" : "passed");
  fflush(stdout);
  fails += bad > 0 || !(maxref > 0);
  free(cs);
  free(fd);
  return fails;
}

int main(void) {
  ht_ctx c;
  ht_setup(&c, 544, 100, 0x48616e6454726b31ULL);
  int status = gradbench_run("ht", "bones=22,verts=544,c=100", "jacobian",
                             ht_verify, ht_primal, ht_jacobian, &c);
  ht_free(&c);
  return status;
}
