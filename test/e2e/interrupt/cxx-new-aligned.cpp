// Interruptible execution: C++17 over-aligned new and delete (a struct
// declared alignas(64), allocated singly and as an array, so the
// align_val_t forms of operator new / delete are called) around a loop that
// fills and reduces the blocks; the caller's array and the returned value
// must be identical after an interruption at any step, including when a
// capsule is resumed twice (interrupt_check.h lists the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct alignas(64) Block {
  double v[8];
};

__attribute__((noinline)) static void fill(Block *b, int count, double seed) {
  for (int k = 0; k < count; ++k)
    for (int i = 0; i < 8; ++i)
      b[k].v[i] = seed * (k + 1) + i;
}

double aligned(double *out, int n) {
  Block *blocks = new Block[n];
  Block *extra = new Block;
  fill(blocks, n, 0.5);
  fill(extra, 1, -1.0);
  double s = 0;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < 8; ++i)
      s += blocks[k].v[i] * extra->v[i];
  out[0] = s;
  out[1] = (double)((reinterpret_cast<unsigned long>(blocks) % 64) +
                    (reinterpret_cast<unsigned long>(extra) % 64));
  delete extra;
  delete[] blocks;
  return s;
}

static double out[2];
static void reset(void) { memset(out, 0, sizeof out); }
DEFINE_RUNNERS(double, aligned, out, 4)
static const struct region regions[] = {{out, sizeof out}};

int main() {
  struct program p = {
      "cxx-new-aligned", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,     regions,        1,     8192};
  return check_interruptible(&p) != 0;
}
