/*===- spin_chain.c - Capsule round trips on the spin kernel, for perf ----===*
 *
 * Not part of run.sh. Runs the spin kernel of kernels.inc 100 times as a
 * chain of capsules every K steps (argument, default 1000), so that a
 * profile splits a round trip between the step function and the runtime:
 *
 *   perf record -e task-clock ./spin_chain 1000
 *   perf record -e task-clock ./spin_chain 1000000000000   (no yields)
 *   perf report --stdio --show-total-period
 *
 * The step function's extra time over the run without yields is the cost
 * of the splitter's yield and resume; the runtime's (memset, malloc, the
 * journal) is the cost of the capsules.
 *===----------------------------------------------------------------------===*/
#include <capsule/capsule.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels_plain.h"
#pragma clang diagnostic ignored "-Wunused-function"
#include "kernels.inc"

int main(int argc, char **argv) {
  volatile double limit = 2e6;
  uint64_t k = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
  uint64_t steps = __capsule_primops((void *)cs_spin, limit);
  size_t cap = (size_t)(steps / k) + 2;
  capsule_t **chain = malloc(sizeof(capsule_t *) * cap);
  long yields = 0;
  for (int r = 0; r < 100; r++) {
    size_t n = 0;
    capsule_t *c = __capsule_interrupt((void *)cs_spin, k, limit);
    while (c) {
      chain[n++] = c;
      c = capsule_resume_for(c, k);
    }
    yields += (long)n;
    while (n > 0)
      capsule_release(chain[--n]);
  }
  printf("%ld yields\n", yields);
  free(chain);
  return 0;
}
