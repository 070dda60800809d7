/*
 * The example of Siskind & Pearlmutter (2018), Fig. 8: a state x of length n
 * is rotated pairwise, l outer steps, each repeated m times where m varies
 * wildly with the step (an "adaptive grid"); the objective is a weighted
 * squared norm of the final state. Capsule computes the gradient of the
 * objective with respect to the initial state; the program checks it
 * against central finite differences.
 *
 *   capsule-rotation-example [n] [l]      (defaults: n = 16, l = 100)
 */
#include <capsule/capsule.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long floor_lg(long v) {
  long r = 0;
  while (v >>= 1)
    r++;
  return r;
}

/* The paper's inner-loop length: 2^(floor(lg l) - floor(lg(1 + (1013
 * floor(3^phi) i mod l)))), small on most steps and O(l) on a few. */
static long inner_steps(long i, long l, double phi) {
  long c = (long)floor(pow(3.0, phi));
  return 1L << (floor_lg(l) - floor_lg(1 + (1013 * c * i) % l));
}

static double magsqr(const double *x, long n) {
  double s = 0;
  for (long k = 0; k < n; k++)
    s += x[k] * x[k];
  return s;
}

/* Rotates the pairs (x[k], x[k+1]) for k = first, first + 2, ... */
static void rotate_pairs(double theta, double *x, long n, long first) {
  double c = cos(theta), s = sin(theta);
  for (long k = first; k + 1 < n; k += 2) {
    double a = x[k], b = x[k + 1];
    x[k] = c * a - s * b;
    x[k + 1] = s * a + c * b;
  }
}

/* The differentiated function: x0 is the initial state, work a scratch
 * buffer of the same length. The weights make the objective sensitive to
 * the rotation angles (a plain |x|^2 / 2 is invariant under rotations). */
double rotation(const double *x0, double *work, long n, long l, double phi) {
  memcpy(work, x0, n * sizeof(double));
  for (long i = 1; i <= l; i++) {
    long m = inner_steps(i, l, phi);
    for (long j = 0; j < m; j++) {
      double y = sqrt(magsqr(work, n));
      rotate_pairs(1.2 * y, work, n, 0);
      rotate_pairs(1.4 * y, work, n, 1);
    }
  }
  double f = 0;
  for (long k = 0; k < n; k++)
    f += (1.0 + k / 1000.0) * work[k] * work[k] / 2;
  return f;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 16;
  long l = argc > 2 ? atol(argv[2]) : 100;
  const double phi = 3;
  if (n < 2 || l < 1) {
    fprintf(stderr, "usage: %s [n >= 2] [l >= 1]\n", argv[0]);
    return 2;
  }
  double *x = malloc(n * sizeof *x), *dx = calloc(n, sizeof *dx);
  double *work = malloc(n * sizeof *work), *dwork = calloc(n, sizeof *dwork);
  for (long k = 0; k < n; k++)
    x[k] = (n - k) / (double)n;

  double f = rotation(x, work, n, l, phi);
  __capsule_autodiff((void *)rotation, capsule_dup, x, dx, capsule_dup, work,
                     dwork, capsule_const, n, capsule_const, l, capsule_const,
                     phi);

  /* Central finite differences, relative step 1e-6. Differences are
   * measured against the largest component: finite differences of a long
   * chain of rotations lose digits on the small components. */
  double *fd = malloc(n * sizeof *fd), largest = 0, worst = 0;
  for (long k = 0; k < n; k++) {
    double keep = x[k], h = 1e-6 * fmax(1.0, fabs(keep));
    x[k] = keep + h;
    double up = rotation(x, work, n, l, phi);
    x[k] = keep - h;
    double down = rotation(x, work, n, l, phi);
    x[k] = keep;
    fd[k] = (up - down) / (2 * h);
    largest = fmax(largest, fabs(fd[k]));
  }
  printf("rotation example: n = %ld, l = %ld, f(x) = %.12g\n", n, l, f);
  printf("%6s %22s %22s %10s\n", "k", "Capsule df/dx[k]", "finite differences",
         "rel. err");
  for (long k = 0; k < n; k++) {
    double err = fabs(dx[k] - fd[k]) / largest;
    worst = fmax(worst, err);
    if (k < 8 || k == n - 1)
      printf("%6ld %22.14g %22.14g %10.2e\n", k, dx[k], fd[k], err);
  }
  const double tolerance = 1e-5;
  printf("largest relative difference %.2e (tolerance %.0e): %s\n", worst,
         tolerance, worst <= tolerance ? "gradient OK" : "GRADIENT WRONG");
  free(x), free(dx), free(work), free(dwork), free(fd);
  return worst <= tolerance ? 0 : 1;
}
