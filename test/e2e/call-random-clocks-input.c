// Random numbers, clocks and input inside differentiated code: a Monte Carlo estimate drawing from rand_r and erand48 with local state (they write the state through their pointer arguments), timed with clock_gettime and gettimeofday, and a buffer of doubles that first holds active values and is then overwritten by fread (the adjoints of what it held must go, not flow into the read data). These library functions were refused as unknown external calls; their results and what they write carry no derivative. Against central differences (the draws are the same each run), plain and checkpointed (where the calls are recorded and replayed).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0 %t0.data
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2 %t2.data
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags -lm
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#define _DEFAULT_SOURCE
#include "include/check.h"
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

void __capsule_autodiff_v(void *, ...);

enum { Draws = 200, Buffer = 4 };

static FILE *input;
static double elapsed; /* written by the function, never differentiated */

static double monteCarlo(double *x) {
  struct timespec t0, t1;
  struct timeval tv;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  gettimeofday(&tv, NULL);
  unsigned seed = 12345;
  unsigned short state[3] = {7, 11, 13};
  double s = 0;
  for (int i = 0; i < Draws; i++) {
    double u = rand_r(&seed) / (double)RAND_MAX;
    double v = erand48(state);
    s += sin(x[0] * u) + x[1] * v * v;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  elapsed = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
  return s / Draws;
}

static double overwrittenByInput(double *x) {
  double buf[Buffer];
  for (int i = 0; i < Buffer; i++)
    buf[i] = x[i % 2] * (i + 1);
  double before = buf[0] * buf[3];
  fseek(input, 0, SEEK_SET);
  size_t got = fread(buf, sizeof(double), Buffer - 1, input);
  double after = 0;
  for (int i = 0; i < Buffer; i++)
    after += buf[i] * x[0];
  return before + after + (double)got;
}

static double monteCarloFd(double *x, void *unused) { return monteCarlo(x); }
static double inputFd(double *x, void *unused) { return overwrittenByInput(x); }

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "call-random-clocks-input.data";
  FILE *out = fopen(path, "wb");
  double data[Buffer] = {0.5, -1.25, 2.0, 9.0};
  fwrite(data, sizeof(double), Buffer, out);
  fclose(out);
  input = fopen(path, "rb");

  double x[2] = {0.7, 1.3}, dx[2] = {0, 0}, dy[2] = {0, 0};
  __capsule_autodiff_v((void *)monteCarlo, capsule_dup, x, dx);
  check_grad_fd("random numbers and clocks", dx, monteCarloFd, 0, x, 2);
  __capsule_autodiff_v((void *)overwrittenByInput, capsule_dup, x, dy);
  check_grad_fd("buffer overwritten by fread", dy, inputFd, 0, x, 2);
  fclose(input);
  remove(path);
  return check_report();
}
