/*===- rotation.c - Benchmark: Siskind & Pearlmutter's rotation example ---===*
 *
 * The nested-loop example of "Divide-and-conquer checkpointing for arbitrary
 * programs with no user annotation" (2018), Fig. 8: n = 1000, phi = 3, main
 * size l = 1000, also l in {53, 211, 809, 3203}. Gradient with respect to x0
 * (dup; the scratch buffer `work` is dup too). The gradient is checked once,
 * at the main size, before anything is timed.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "rotation_bench.h"

static void run(long n, long l, double phi) {
  char label[128];
  rotation_ctx c;
  rotation_setup(&c, n, l, phi);
  snprintf(label, sizeof label, "rotation n=%ld l=%ld (%ld inner iterations)",
           n, l, rotation_total_inner(l, phi));
  bench_result r = bench_measure(rotation_primal, rotation_gradient, &c);
  bench_print(label, &r);
  rotation_free(&c);
}

int main(void) {
  const long n = 1000, l_main = 1000;
  const double phi = 3.0;
  static const long l_more[] = {53, 211, 809, 3203};
  char label[96];
  rotation_ctx c;

  snprintf(label, sizeof label, "rotation n=%ld l=%ld", n, l_main);
  rotation_setup(&c, n, l_main, phi);
  int fails = rotation_verify(&c, label);
  rotation_free(&c);
  if (fails) {
    printf("%s: gradient check FAILED, no timings reported\n", label);
    return 1;
  }
  run(n, l_main, phi);
  for (size_t i = 0; i < sizeof l_more / sizeof l_more[0]; i++)
    run(n, l_more[i], phi);
  return 0;
}
