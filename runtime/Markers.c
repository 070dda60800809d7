/*===- Markers.c - Capsule's marker globals and functions -----------------===*
 *
 * The pass recognizes these by name where they are passed to a marker call;
 * the values only have to differ. capsule_checkpoint_iteration() means
 * something only in checkpointed code, where the pass replaces its calls;
 * elsewhere it does nothing. They live in their own object file so the
 * linker pulls it in only when a program refers to one of them, and a
 * program defining its own enzyme_* markers never clashes with the runtime.
 *===----------------------------------------------------------------------===*/
#include "capsule/capsule.h"

int capsule_dup = 1;
int capsule_dupnoneed = 2;
int capsule_const = 3;
int capsule_out = 4;
int capsule_width = 5;
int capsule_dupv = 6;
int capsule_dupnoneedv = 7;
int capsule_tape = 8;
int capsule_allocated = 9;

void capsule_checkpoint_iteration(void) {}
