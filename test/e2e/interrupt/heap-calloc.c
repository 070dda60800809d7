// Interruptible execution: calloc'd memory inside the function (a zeroed
// histogram and a zeroed 2-D count matrix reached through a calloc'd array
// of row pointers), counted into, copied to the caller and freed; the
// caller's arrays and the returned total must be identical after an
// interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

#define BINS 10

long counts(const int *in, int n, int *hist_out, int *pairs_out) {
  int *hist = (int *)calloc(BINS, sizeof(int));
  int **pairs = (int **)calloc(BINS, sizeof(int *));
  for (int b = 0; b < BINS; ++b)
    pairs[b] = (int *)calloc(BINS, sizeof(int));
  for (int i = 0; i < n; ++i) {
    int b = in[i] % BINS;
    hist[b] += 1;
    if (i > 0)
      pairs[in[i - 1] % BINS][b] += 1;
  }
  long total = 0;
  for (int b = 0; b < BINS; ++b) {
    hist_out[b] = hist[b];
    for (int c = 0; c < BINS; ++c) {
      pairs_out[b * BINS + c] = pairs[b][c];
      total += (long)pairs[b][c] * (b + 1) * (c + 1);
    }
    free(pairs[b]);
  }
  free(pairs);
  free(hist);
  return total;
}

static int in[40], hist_out[BINS], pairs_out[BINS * BINS];
static void reset(void) {
  for (int i = 0; i < 40; ++i)
    in[i] = (i * i * 7 + 3) % 97;
  memset(hist_out, 0xff, sizeof hist_out);
  memset(pairs_out, 0xff, sizeof pairs_out);
}
DEFINE_RUNNERS(long, counts, in, 40, hist_out, pairs_out)
static const struct region regions[] = {{in, sizeof in},
                                        {hist_out, sizeof hist_out},
                                        {pairs_out, sizeof pairs_out}};

int main(void) {
  struct program p = {"heap-calloc", sizeof(long),  reset,   plain_run,
                      primops_run,   interrupt_run, regions, 3,
                      8192};
  return check_interruptible(&p) != 0;
}
