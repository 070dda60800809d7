// Replay of non-deterministic calls in interrupted computations: generators
// that write through pointers (erand48's state, rand_r's seed), reading a
// file (fread into a local buffer, advancing the file), a clock writing a
// struct (gettimeofday) and random(). Each capsule, resumed twice, gives the
// result of the uninterrupted run with the generators in the same state:
// the second resumption takes every result from the replay log, since the
// C library's generators and the file have moved on.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
#define _DEFAULT_SOURCE
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static FILE *data;

double draw(int steps) {
  unsigned short xsubi[3] = {1, 2, 3};
  unsigned seed = 7;
  double s = 0.0;
  for (int k = 0; k < steps; k++) {
    double chunk[2];
    if (fread(chunk, sizeof chunk[0], 2, data) != 2)
      chunk[0] = chunk[1] = -1.0; /* past the end: part of the result too */
    struct timeval tv;
    gettimeofday(&tv, NULL);
    s += erand48(xsubi) * chunk[0] + (rand_r(&seed) % 97) * chunk[1] +
         (random() % 1000) * 1e-3 + (tv.tv_usec >= 0 ? 0.0 : 1.0);
    s = sin(s);
  }
  return s;
}

enum { STEPS = 40 };
static void reset(void) {
  srandom(3);
  rewind(data);
}

int main(void) {
  data = tmpfile();
  for (int i = 0; i < 3 * STEPS; i++) {
    double v = cos(i * 0.37);
    fwrite(&v, sizeof v, 1, data);
  }
  reset();
  double want = draw(STEPS);
  uint64_t n = (reset(), __capsule_primops((void *)draw, STEPS));
  int failures = 0;
  for (uint64_t k = 0; k <= n; k += n / 13 + 1) {
    reset();
    capsule_t *c = __capsule_interrupt((void *)draw, k, STEPS);
    if (!c)
      continue;
    double first, second;
    capsule_resume(c, &first);
    capsule_resume(c, &second); /* the C library has moved on: replayed */
    capsule_release(c);
    if (memcmp(&first, &want, sizeof want) ||
        memcmp(&second, &want, sizeof want)) {
      printf("FAIL k=%llu: resumed %.17g then %.17g, uninterrupted %.17g\n",
             (unsigned long long)k, first, second, want);
      failures++;
    }
  }
  printf(failures ? "%d FAILED\n" : "PASS (%d failures)\n", failures);
  return failures != 0;
}
