/* Differentiates x*x at 3 and shows the statistics before and after. */
#include <capsule/capsule.h>
#include <stdio.h>

double square(double x) { return x * x; }

static void printCalls(void) {
  capsule_stats_t Stats;
  capsule_get_stats(&Stats);
  printf("calls=%llu\n", (unsigned long long)Stats.calls);
}

int main(void) {
  printCalls();
  printf("d/dx x*x at 3 = %g\n", __capsule_autodiff((void *)square, 3.0));
  printCalls();
  return 0;
}
