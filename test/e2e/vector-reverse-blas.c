// Reverse vector mode (enzyme_width in __enzyme_autodiff) through BLAS:
// every routine Capsule has rules for, CBLAS and the Fortran interface,
// inside functions of several outputs whose Jacobian rows come in lanes.
// The augmented rule runs once, the gradient rule once per lane on the
// same tape (kept for all lanes but the last: a rule that wrote its tape,
// as dtrmm's did, gives the later lanes wrong rows). References: each lane
// against a width-1 gradient with that lane's seed, and the rows against
// central differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas && %t2
// With gfortran's hidden lengths of the character arguments:
// RUN: %clang -O1 -g -DSTRLEN=size_t %capsule_cflags %s -o %t1 %capsule_ldflags -lopenblas && %t1
#include <cblas.h>
#include <math.h>
#include <string.h>
#include "check.h"
#include "fortran_blas.h"
#include "blas_models.h"

extern int enzyme_width, enzyme_dupv, enzyme_dup;
void __enzyme_autodiff(void *, ...);

typedef void (*model)(const double *, double *);

/* The seed of one lane dotted with the model's outputs. */
static model current;
static const double *weights;
static double weighted_outputs(double *x, void *ctx) {
  (void)ctx;
  double y[NY] = {0}, s = 0;
  current(x, y);
  for (int j = 0; j < NY; ++j)
    s += weights[j] * y[j];
  return s;
}

#define LANES 4
/* Each lane's row combination against width 1 and central differences. */
static void check_lanes(const char *name, model f, const double *x,
                        double xbar[LANES][NX], double seeds[LANES][NY],
                        double one[LANES][NX]) {
  current = f;
  for (int k = 0; k < LANES; ++k) {
    char what[64];
    snprintf(what, sizeof what, "%s lane %d against width 1", name, k);
    check_vec_cf(what, xbar[k], one[k], NX);
    weights = seeds[k];
    snprintf(what, sizeof what, "%s lane %d", name, k);
    check_grad_fd(what, xbar[k], weighted_outputs, NULL, x, NX);
  }
}

/* Four rows, or combinations of rows, of the Jacobian in one call; the
 * same seeds one by one. */
#define CHECK_MODEL(f)                                                         \
  static void check_##f(void) {                                              \
    double x[NX], y[NY] = {0}, ybar[LANES][NY], xbar[LANES][NX];             \
    double seeds[LANES][NY], one[LANES][NX];                                 \
    for (int i = 0; i < NX; ++i)                                             \
      x[i] = 0.4 * sin(1.7 * i + 0.3) + 0.1;                                  \
    memset(ybar, 0, sizeof ybar);                                            \
    memset(xbar, 0, sizeof xbar);                                            \
    memset(one, 0, sizeof one);                                              \
    for (int k = 0; k < LANES; ++k) {                                        \
      ybar[k][k] = 1;                                                        \
      ybar[k][NY - 1] += 0.5 * k;                                            \
    }                                                                        \
    memcpy(seeds, ybar, sizeof seeds);                                       \
    __enzyme_autodiff((void *)f, enzyme_width, LANES, enzyme_dupv,           \
                      sizeof xbar[0], x, xbar, enzyme_dupv, sizeof ybar[0],  \
                      y, ybar);                                              \
    for (int k = 0; k < LANES; ++k) {                                        \
      double yk[NY] = {0}, seed[NY];                                         \
      memcpy(seed, seeds[k], sizeof seed);                                   \
      __enzyme_autodiff((void *)f, enzyme_dup, x, one[k], enzyme_dup, yk,    \
                        seed);                                               \
    }                                                                        \
    check_lanes(#f, f, x, xbar, seeds, one);                                 \
  }

CHECK_MODEL(blas_level1)
CHECK_MODEL(blas_level2)
CHECK_MODEL(blas_level3)
CHECK_MODEL(blas_fortran)

int main(void) {
  check_blas_level1();
  check_blas_level2();
  check_blas_level3();
  check_blas_fortran();
  return check_report();
}
