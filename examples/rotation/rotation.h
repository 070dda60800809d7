/*
 * The example of Siskind & Pearlmutter (2018), Fig. 8, shared by the
 * rotation example (rotation.c) and the paper's section 6 experiment
 * (../paper-fig8/fig8.c): a state x of length n is rotated pairwise, l
 * outer steps, the i-th repeated m_i times where m_i varies wildly with i
 * (an "adaptive grid"); the objective is a weighted squared norm of the
 * final state. Included by one translation unit per program.
 */
#ifndef CAPSULE_EXAMPLES_ROTATION_H
#define CAPSULE_EXAMPLES_ROTATION_H

#include <math.h>
#include <string.h>

static long floor_lg(long v) {
  long r = 0;
  while (v >>= 1)
    r++;
  return r;
}

/* The paper's inner-loop length for outer step i: 2^(floor(lg l) -
 * floor(lg(1 + (1013 c i mod l)))), small on most steps and O(l) on a few.
 * c is floor(3^phi). */
static long inner_steps(long i, long l, long c) {
  return 1L << (floor_lg(l) - floor_lg(1 + (1013 * c * i) % l));
}

static long floor_3_to_the(double phi) { return (long)floor(pow(3.0, phi)); }

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

/* Outer step i: the adaptive grid's refinement. */
static void outer_step(double *x, long n, long i, long l, long c) {
  long m = inner_steps(i, l, c);
  for (long j = 0; j < m; j++) {
    double y = sqrt(magsqr(x, n));
    rotate_pairs(1.2 * y, x, n, 0);
    rotate_pairs(1.4 * y, x, n, 1);
  }
}

/* The weights make the objective sensitive to the rotation angles (a plain
 * |x|^2 / 2 is invariant under rotations). */
static double objective(const double *x, long n) {
  double f = 0;
  for (long k = 0; k < n; k++)
    f += (1.0 + k / 1000.0) * x[k] * x[k] / 2;
  return f;
}

/* The differentiated function: x0 is the initial state, x a buffer of the
 * same length for the evolving one. */
double rotation(const double *x0, double *x, long n, long l, double phi) {
  long c = floor_3_to_the(phi);
  memcpy(x, x0, n * sizeof(double));
  for (long i = 1; i <= l; i++)
    outer_step(x, n, i, l, c);
  return objective(x, n);
}

/* Central finite differences of rotation at x0 (relative step 1e-6) into
 * fd; returns the largest |grad[k] - fd[k]| relative to the largest |fd|:
 * finite differences of a long chain of rotations lose digits on the small
 * components, so differences are measured against the largest one. */
static double rotation_fd_error(double *x0, double *x, const double *grad,
                                double *fd, long n, long l, double phi) {
  double largest = 0, worst = 0;
  for (long k = 0; k < n; k++) {
    double keep = x0[k], h = 1e-6 * fmax(1.0, fabs(keep));
    x0[k] = keep + h;
    double up = rotation(x0, x, n, l, phi);
    x0[k] = keep - h;
    double down = rotation(x0, x, n, l, phi);
    x0[k] = keep;
    fd[k] = (up - down) / (2 * h);
    largest = fmax(largest, fabs(fd[k]));
  }
  for (long k = 0; k < n; k++)
    worst = fmax(worst, fabs(grad[k] - fd[k]) / largest);
  return worst;
}

/* The tolerance of rotation_fd_error's result. */
static const double rotation_fd_tolerance = 1e-5;

#endif
