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
#include "rotation.h"

#include <capsule/capsule.h>

#include <stdio.h>
#include <stdlib.h>

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

  double *fd = malloc(n * sizeof *fd), largest = 0;
  double worst = rotation_fd_error(x, work, dx, fd, n, l, phi);
  for (long k = 0; k < n; k++)
    largest = fmax(largest, fabs(fd[k]));
  printf("rotation example: n = %ld, l = %ld, f(x) = %.12g\n", n, l, f);
  printf("%6s %22s %22s %10s\n", "k", "Capsule df/dx[k]", "finite differences",
         "rel. err");
  for (long k = 0; k < n; k++)
    if (k < 8 || k == n - 1)
      printf("%6ld %22.14g %22.14g %10.2e\n", k, dx[k], fd[k],
             fabs(dx[k] - fd[k]) / largest);
  int ok = worst <= rotation_fd_tolerance;
  printf("largest relative difference %.2e (tolerance %.0e): %s\n", worst,
         rotation_fd_tolerance, ok ? "gradient OK" : "GRADIENT WRONG");
  free(x), free(dx), free(work), free(dwork), free(fd);
  return !ok;
}
