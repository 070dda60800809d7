// GradBench's hand-tracking task (written here from its public description, with a synthetic hand): the residuals between observed points and the vertices of a skinned hand model posed by 26 parameters (global rotation and translation, finger joint angles as Euler angles through a bone hierarchy, linear blend skinning), and their Jacobian with respect to the parameters. The Jacobian by vector forward mode (eight columns per run, capsule_width), by one tangent per column, and row by row by reverse mode must agree with each other and with central finite differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <capsule/capsule.h>
#include <string.h>

#include "check.h"

void __capsule_autodiff_v(void *, ...);
void __capsule_fwddiff_v(void *, ...);

enum {
  BONES = 22,       /* wrist, then 5 fingers of 4 bones, then a forearm */
  VERTS = 120,      /* vertices of the synthetic mesh */
  POINTS = 40,      /* observed points, each matched to a vertex */
  PARAMS = 26,      /* 3 rotation, 3 translation, 20 finger angles */
  RESIDUALS = 3 * POINTS,
  LANES = 8
};

typedef struct {
  int parent[BONES];
  double base_relative[BONES][16];         /* column-major 4x4 */
  double inverse_base_absolute[BONES][16]; /* column-major 4x4 */
  double base_position[VERTS][4];          /* homogeneous, w = 1 */
  double weight[BONES][VERTS];             /* per vertex, summing to 1 */
  int correspondence[POINTS];
  double point[POINTS][3];
} hand_model;

static hand_model model;

/* c = a * b, 4x4 column-major. */
static void mat_mul(const double *a, const double *b, double *c) {
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < 4; i++) {
      double s = 0;
      for (int k = 0; k < 4; k++)
        s += a[k * 4 + i] * b[j * 4 + k];
      c[j * 4 + i] = s;
    }
}

/* The rotation R_z(c) R_y(b) R_x(a) of Euler angles (a, b, c), 4x4. */
static void euler_to_matrix(const double *angle, double *m) {
  double cx = cos(angle[0]), sx = sin(angle[0]);
  double cy = cos(angle[1]), sy = sin(angle[1]);
  double cz = cos(angle[2]), sz = sin(angle[2]);
  double r[9] = {cz * cy,
                 sz * cy,
                 -sy,
                 cz * sy * sx - sz * cx,
                 sz * sy * sx + cz * cx,
                 cy * sx,
                 cz * sy * cx + sz * sx,
                 sz * sy * cx - cz * sx,
                 cy * cx};
  memset(m, 0, 16 * sizeof(double));
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++)
      m[j * 4 + i] = r[j * 3 + i];
  m[15] = 1;
}

/* Rodrigues' formula: the rotation of angle |w| about w / |w|. */
static void angle_axis_to_matrix(const double *w, double *r) {
  double n = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (n < 1e-10) {
    double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(r, id, sizeof id);
    return;
  }
  double x = w[0] / n, y = w[1] / n, z = w[2] / n;
  double s = sin(n), c = cos(n), t = 1 - c;
  double m[9] = {t * x * x + c,     t * x * y + s * z, t * x * z - s * y,
                 t * x * y - s * z, t * y * y + c,     t * y * z + s * x,
                 t * x * z + s * y, t * y * z - s * x, t * z * z + c};
  memcpy(r, m, sizeof m);
}

/* The pose: row 0 the global rotation, row 1 the scale, row 2 the global
 * translation, row 3 + b bone b's Euler angles: the first bone of each
 * finger bends and spreads, the next two bend, the tip follows. */
static void pose_parameters(const double *theta, double pose[BONES + 3][3]) {
  memset(pose, 0, sizeof(double) * (BONES + 3) * 3);
  for (int k = 0; k < 3; k++) {
    pose[0][k] = theta[k];
    pose[1][k] = 1.0;
    pose[2][k] = theta[3 + k];
  }
  int next = 6;
  for (int finger = 0; finger < 5; finger++)
    for (int bone = 0; bone < 4; bone++) {
      double *angles = pose[3 + 1 + finger * 4 + bone];
      if (bone < 3)
        angles[0] = theta[next++];
      if (bone == 0)
        angles[1] = theta[next++];
    }
}

/* The residuals of the observed points against the posed mesh. */
static void hand_residuals(const double *theta, double *residual) {
  double pose[BONES + 3][3];
  double absolute[BONES][16], transform[BONES][16], rot[16], relative[16];
  pose_parameters(theta, pose);
  for (int b = 0; b < BONES; b++) {
    euler_to_matrix(pose[3 + b], rot);
    mat_mul(model.base_relative[b], rot, relative);
    if (model.parent[b] < 0)
      memcpy(absolute[b], relative, sizeof relative);
    else
      mat_mul(absolute[model.parent[b]], relative, absolute[b]);
    mat_mul(absolute[b], model.inverse_base_absolute[b], transform[b]);
  }
  double global[9];
  angle_axis_to_matrix(pose[0], global);
  for (int p = 0; p < POINTS; p++) {
    int v = model.correspondence[p];
    double skinned[3] = {0, 0, 0};
    for (int b = 0; b < BONES; b++) {
      double w = model.weight[b][v];
      if (w == 0)
        continue;
      for (int i = 0; i < 3; i++) {
        double s = 0;
        for (int k = 0; k < 4; k++)
          s += transform[b][k * 4 + i] * model.base_position[v][k];
        skinned[i] += w * s;
      }
    }
    for (int i = 0; i < 3; i++) {
      double moved = pose[2][i];
      for (int k = 0; k < 3; k++)
        moved += global[k * 3 + i] * pose[1][k] * skinned[k];
      residual[3 * p + i] = model.point[p][i] - moved;
    }
  }
}

/*--- a synthetic hand --------------------------------------------------*/

static unsigned long rng = 12345;
static double uniform(void) {
  rng = rng * 6364136223846793005UL + 1442695040888963407UL;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static void make_hand(void) {
  double zero[3] = {0, 0, 0};
  for (int b = 0; b < BONES; b++) {
    /* The wrist, five chains of four on it, the forearm on it too. */
    if (b == 0)
      model.parent[b] = -1;
    else if (b == BONES - 1 || (b - 1) % 4 == 0)
      model.parent[b] = 0;
    else
      model.parent[b] = b - 1;
    double angles[3] = {0.3 * uniform() - 0.15, 0.3 * uniform() - 0.15,
                        0.3 * uniform() - 0.15};
    euler_to_matrix(b ? angles : zero, model.base_relative[b]);
    model.base_relative[b][12] = b ? 0.2 + 0.1 * uniform() : 0;
    model.base_relative[b][13] = b ? 0.3 * uniform() - 0.15 : 0;
    model.base_relative[b][14] = b ? 0.1 * uniform() : 0;
  }
  /* The inverse base absolutes undo the rest pose (rigid transforms). */
  double absolute[BONES][16];
  for (int b = 0; b < BONES; b++) {
    if (model.parent[b] < 0)
      memcpy(absolute[b], model.base_relative[b], sizeof absolute[b]);
    else
      mat_mul(absolute[model.parent[b]], model.base_relative[b], absolute[b]);
    double *inv = model.inverse_base_absolute[b];
    memset(inv, 0, 16 * sizeof(double));
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        inv[j * 4 + i] = absolute[b][i * 4 + j];
    for (int i = 0; i < 3; i++) {
      double s = 0;
      for (int k = 0; k < 3; k++)
        s += inv[k * 4 + i] * absolute[b][12 + k];
      inv[12 + i] = -s;
    }
    inv[15] = 1;
  }
  for (int v = 0; v < VERTS; v++) {
    int home = v % BONES, other = (home + 1) % BONES;
    for (int k = 0; k < 3; k++)
      model.base_position[v][k] = absolute[home][12 + k] + 0.05 * uniform();
    model.base_position[v][3] = 1;
    double w = 0.6 + 0.3 * uniform();
    model.weight[home][v] = w;
    model.weight[other][v] = 1 - w;
  }
  for (int p = 0; p < POINTS; p++) {
    model.correspondence[p] = (p * 7) % VERTS;
    for (int k = 0; k < 3; k++)
      model.point[p][k] = model.base_position[model.correspondence[p]][k] +
                          0.1 * uniform() - 0.05;
  }
}

/*--- the three Jacobians ----------------------------------------------*/

static double jac_lanes[PARAMS][RESIDUALS];  /* column j at jac_lanes[j] */
static double jac_single[PARAMS][RESIDUALS];
static double jac_rows[RESIDUALS][PARAMS];

static void residuals_fd(double *theta, double *out, void *ctx) {
  (void)ctx;
  hand_residuals(theta, out);
}

int main(void) {
  make_hand();
  double theta[PARAMS], residual[RESIDUALS];
  for (int j = 0; j < PARAMS; j++)
    theta[j] = 0.4 * uniform() - 0.2;
  theta[3] = 0.1, theta[4] = -0.05, theta[5] = 0.2;

  /* Vector forward mode: eight columns per run, the last run two. */
  static double seeds[PARAMS + LANES][PARAMS];
  static double columns[PARAMS + LANES][RESIDUALS];
  for (int j = 0; j < PARAMS; j++)
    seeds[j][j] = 1;
  for (int j = 0; j < PARAMS; j += LANES)
    __capsule_fwddiff_v((void *)hand_residuals, capsule_width, 8,
                        capsule_dupv, sizeof seeds[0], theta, seeds[j],
                        capsule_dupv, sizeof columns[0], residual, columns[j]);
  memcpy(jac_lanes, columns, sizeof jac_lanes);

  /* One tangent per column. */
  for (int j = 0; j < PARAMS; j++) {
    double dtheta[PARAMS] = {0};
    dtheta[j] = 1;
    __capsule_fwddiff_v((void *)hand_residuals, theta, dtheta, residual,
                        jac_single[j]);
  }

  /* Reverse mode, one row per residual. */
  for (int r = 0; r < RESIDUALS; r++) {
    double seed[RESIDUALS] = {0}, dtheta[PARAMS] = {0};
    seed[r] = 1;
    __capsule_autodiff_v((void *)hand_residuals, theta, dtheta, residual, seed);
    memcpy(jac_rows[r], dtheta, sizeof dtheta);
  }

  for (int j = 0; j < PARAMS; j++) {
    check_jvp_fd("vector-mode column", jac_lanes[j], residuals_fd, NULL, theta,
                 seeds[j], PARAMS, RESIDUALS);
    for (int r = 0; r < RESIDUALS; r++) {
      check_close("one tangent per column", jac_single[j][r], jac_lanes[j][r],
                  1e-12, 1e-14);
      check_close("reverse mode rows", jac_rows[r][j], jac_lanes[j][r], 1e-10,
                  1e-12);
    }
  }
  return check_report();
}
