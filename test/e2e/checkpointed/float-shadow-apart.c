// Checkpointing saves and restores memory in 8-byte blocks; a shadow that
// shares a block with data the function writes (a float and its adjoint
// side by side, {y, dy}) had its accumulated adjoint restored to the seed
// when a snapshot was rolled back: dy came back 1 for 6, without a word.
// The checkpointed gradient now stops with a message when a dup
// argument's shadow is not 8-byte aligned or lies in the argument's own
// block; a shadow aligned and apart gets the plain gradient's result.
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags
// RUN: env CAPSULE_LEAF_STEPS=5 %t2 apart
// RUN: not %t2 pair 2>&1 | FileCheck %s
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags
// RUN: env CAPSULE_LEAF_STEPS=5 %t0 apart
// RUN: not %t0 pair 2>&1 | FileCheck %s
// CHECK: capsule: error: the shadow of argument 1 of a checkpointed gradient shares an 8-byte block with other memory
#include <capsule/capsule.h>
#include <string.h>

#include "../include/check.h"

// A float state squared and damped in a loop long enough to be split.
void evolve(float *y, int steps) {
  for (int k = 0; k < steps; k++)
    y[0] = y[0] * y[0] * 0.5f + 0.25f;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "pair")) {
    _Alignas(8) float pair[2] = {0.5f, 1.0f}; // y, then its adjoint
    __capsule_autodiff_checkpointed((void *)evolve, capsule_dup, &pair[0],
                                    &pair[1], capsule_const, 40);
    return 0;
  }
  float y = 0.5f, dy = 1.0f;
  _Alignas(8) float yc = 0.5f;
  _Alignas(8) float dyc = 1.0f;
  __capsule_autodiff((void *)evolve, capsule_dup, &y, &dy, capsule_const, 40);
  __capsule_autodiff_checkpointed((void *)evolve, capsule_dup, &yc, &dyc,
                                  capsule_const, 40);
  check_close("checkpointed against plain", dyc, dy, 1e-6, 1e-12);
  check_close("state", yc, y, 0, 0);
  return check_report();
}
