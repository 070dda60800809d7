//===- GreenRun.h - Untaped forward sweeps --------------------------------===//
//
// The checkpointing driver runs some forward sweeps only to bring memory and
// the pointer shadows beside it to a later point, not to differentiate them:
// a *green run*. The sweep's code is the taped one, so it still pushes
// records and allocates shadows of stack slots and of byval copies, whose
// reverse sweep never comes. While a green run is active on a thread:
//
//  - the tape does not grow: a push that leaves the current chunk starts
//    over at the chunk's beginning (records are written, never read), and
//    nothing counts toward the tape limit or the statistics; the tape must
//    be empty when the run begins, and is empty again when it ends;
//  - shadows from __capsule_shadow_alloc (and __capsule_shadow_realloc) are
//    remembered and freed when the run ends, unless the run frees them
//    first.
//
// Green runs do not nest, and pops are an internal error during one.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_GREENRUN_H
#define CAPSULE_RUNTIME_GREENRUN_H

#include <cstdint>

namespace capsule {

/// Starts a green run on this thread. The tape must be empty (between
/// stages); an internal error otherwise.
void beginGreenRun();

/// Ends this thread's green run: leaves the tape empty and frees the shadows
/// the run allocated and did not free.
void endGreenRun();

/// Whether a green run is active on this thread.
bool inGreenRun();

/// For tests: shadows allocated in this thread's green run and not yet freed,
/// and shadow blocks this thread allocated and has not freed (any run).
uint64_t liveGreenShadows();
uint64_t liveShadowBlocks();

/// The parts of begin and end that belong to the tape (Tape.cpp) and to the
/// shadows (Shadow.cpp).
void tapeBeginGreenRun();
void tapeEndGreenRun();
void freeGreenShadows();

} // namespace capsule

#endif // CAPSULE_RUNTIME_GREENRUN_H
