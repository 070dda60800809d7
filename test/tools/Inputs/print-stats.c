/* Links the runtime and reads its statistics; no gradient involved. */
#include <capsule/capsule.h>
#include <stdio.h>

int main(void) {
  capsule_stats_t Stats;
  capsule_get_stats(&Stats);
  printf("calls=%llu\n", (unsigned long long)Stats.calls);
  return 0;
}
