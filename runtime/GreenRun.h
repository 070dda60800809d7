//===- GreenRun.h - Untaped forward sweeps --------------------------------===//
//
// The checkpointing driver runs some forward sweeps only to bring memory and
// the pointer shadows beside it to a later point, not to differentiate them:
// a *green run*. It executes the untaped forward sweep the pass generates
// for it, which pushes no records and allocates no shadows on the shadow
// heap (checkpointed code derives heap shadows from arena addresses and
// takes the shadows of stack slots from the scratch shadows). While a green
// run is active on a thread:
//
//  - the tape stays empty: it must be empty when the run begins, and a push
//    or a pop is an internal error (a taped sweep ran by mistake);
//  - __capsule_shadow_alloc and __capsule_shadow_realloc are an internal
//    error for the same reason: no reverse sweep would free their shadows;
//  - scratch shadows the run allocates are dropped when it ends, since their
//    reverse sweep never comes.
//
// Green runs do not nest.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_GREENRUN_H
#define CAPSULE_RUNTIME_GREENRUN_H

namespace capsule {

/// Starts a green run on this thread. The tape must be empty (between
/// stages); an internal error otherwise.
void beginGreenRun();

/// Ends this thread's green run: drops the scratch shadows it allocated and
/// lets the tape take records again.
void endGreenRun();

/// Whether a green run is active on this thread (GreenRun.cpp's flag,
/// read inline by every gradient call).
extern __thread bool GreenRunActive;
inline bool inGreenRun() { return GreenRunActive; }

/// The parts of begin and end that belong to the tape (Tape.cpp).
void tapeBeginGreenRun();
void tapeEndGreenRun();

} // namespace capsule

#endif // CAPSULE_RUNTIME_GREENRUN_H
