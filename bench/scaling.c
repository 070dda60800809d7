/*===- scaling.c - Benchmark: gradient time and tape growth with size -----===*
 *
 * For gmm (n = 1000, 2000, 4000), rotation (l = 250, 500, 1000) and rk4
 * (steps = 1000, 2000, 4000): gradient time and peak tape bytes at three
 * sizes and their ratios to the smallest size, next to the growth of the
 * primal's work, to show that time and tape grow linearly with it. Each
 * family's gradient is checked once, at its smallest size, before it is
 * timed.
 *
 * The primal work of rotation is not linear in l (the inner trip counts
 * depend on l); its "work" column is the total number of inner iterations.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "gmm_bench.h"
#include "rk4_bench.h"
#include "rotation_bench.h"

typedef struct row {
  long size;
  double work; /* primal work measure for the ratio column */
  bench_result r;
} row;

static void summary(const char *family, const char *param, const row *rows,
                    int n) {
  printf("scaling %s, ratios to %s=%ld:\n", family, param, rows[0].size);
  for (int i = 0; i < n; i++) {
    double t0 = (double)rows[0].r.tape_bytes;
    double tr = t0 > 0 ? (double)rows[i].r.tape_bytes / t0 : 0.0;
    printf("    %s=%-5ld work x%5.2f   primal x%5.2f   gradient x%5.2f   "
           "tape x%5.2f (%.2f MiB)\n",
           param, rows[i].size, rows[i].work / rows[0].work,
           rows[i].r.primal_s / rows[0].r.primal_s,
           rows[i].r.gradient_s / rows[0].r.gradient_s, tr,
           (double)rows[i].r.tape_bytes / (1024.0 * 1024.0));
  }
  fflush(stdout);
}

static int scale_gmm(void) {
  static const long sizes[3] = {1000, 2000, 4000};
  const int d = 10, k = 25;
  row rows[3];
  for (int i = 0; i < 3; i++) {
    char label[96];
    gmm_ctx c;
    snprintf(label, sizeof label, "scaling gmm d=%d k=%d n=%ld", d, k,
             sizes[i]);
    gmm_setup(&c, d, k, (int)sizes[i], 0x9e3779b97f4a7c15ULL);
    if (i == 0 && gmm_verify(&c, label)) {
      printf("%s: gradient check FAILED, no timings reported\n", label);
      return 1;
    }
    rows[i].size = sizes[i];
    rows[i].work = (double)sizes[i];
    rows[i].r = bench_measure(gmm_primal, gmm_gradient, &c);
    bench_print(label, &rows[i].r);
    gmm_free(&c);
  }
  summary("gmm", "n", rows, 3);
  return 0;
}

static int scale_rotation(void) {
  static const long sizes[3] = {250, 500, 1000};
  const long n = 1000;
  const double phi = 3.0;
  row rows[3];
  for (int i = 0; i < 3; i++) {
    char label[128];
    rotation_ctx c;
    long inner = rotation_total_inner(sizes[i], phi);
    snprintf(label, sizeof label,
             "scaling rotation n=%ld l=%ld (%ld inner iterations)", n,
             sizes[i], inner);
    rotation_setup(&c, n, sizes[i], phi);
    if (i == 0 && rotation_verify(&c, label)) {
      printf("%s: gradient check FAILED, no timings reported\n", label);
      return 1;
    }
    rows[i].size = sizes[i];
    rows[i].work = (double)inner;
    rows[i].r = bench_measure(rotation_primal, rotation_gradient, &c);
    bench_print(label, &rows[i].r);
    rotation_free(&c);
  }
  summary("rotation (work = inner iterations)", "l", rows, 3);
  return 0;
}

static int scale_rk4(void) {
  static const long sizes[3] = {1000, 2000, 4000};
  const long n = 10;
  const double dt = 0.01;
  row rows[3];
  for (int i = 0; i < 3; i++) {
    char label[96];
    rk4_ctx c;
    snprintf(label, sizeof label, "scaling rk4 lorenz96 n=%ld steps=%ld", n,
             sizes[i]);
    rk4_setup(&c, n, sizes[i], dt, 0xb7e151628aed2a6bULL);
    if (i == 0 && rk4_verify(&c, label)) {
      printf("%s: gradient check FAILED, no timings reported\n", label);
      return 1;
    }
    rows[i].size = sizes[i];
    rows[i].work = (double)sizes[i];
    rows[i].r = bench_measure(rk4_primal, rk4_gradient, &c);
    bench_print(label, &rows[i].r);
    rk4_free(&c);
  }
  summary("rk4", "steps", rows, 3);
  return 0;
}

int main(void) {
  int fails = 0;
  fails += scale_gmm();
  fails += scale_rotation();
  fails += scale_rk4();
  return fails ? 1 : 0;
}
