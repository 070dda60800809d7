// Interruptible execution: std::map and std::list built, rebalanced,
// walked and torn down inside the function (their node links are the
// bodies Capsule links into the module, Support/LibraryBodies.h); the
// caller's array and the returned value must be identical after an
// interruption at any step (interrupt_check.h lists the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <list>
#include <map>

long containers(const int *in, int n, long *out, int out_len) {
  std::map<int, long> m;
  for (int i = 0; i < n; ++i)
    m[(in[i] * 13) % 17] += in[i];
  for (int k = 0; k < 17; k += 4)
    m.erase(k);
  std::list<long> l;
  for (auto it = m.rbegin(); it != m.rend(); ++it)
    (it->first % 2 ? l.push_back(it->second) : l.push_front(it->second));
  l.reverse();
  l.sort();
  int i = 0;
  for (long v : l)
    if (i < out_len)
      out[i++] = v;
  return (long)m.size() * 100 + (long)l.size();
}

static int in[21];
static long out[24];
static void reset(void) {
  for (int i = 0; i < 21; ++i)
    in[i] = (i * 7) % 10 + 3 * i;
  memset(out, 0, sizeof out);
}
DEFINE_RUNNERS(long, containers, in, 21, out, 24)
static const struct region regions[] = {{in, sizeof in}, {out, sizeof out}};

int main() {
  struct program p = {"cxx-map-list", sizeof(long),  reset,   plain_run,
                      primops_run,    interrupt_run, regions, 2,
                      8192};
  return check_interruptible(&p) != 0;
}
