//===- Capsules.h - The driver's capsules, for other runtime parts --------===//
//
// The checkpointing driver (Checkpointed.cpp) builds on the capsules of
// Interrupt.cpp but runs its own step functions: untaped and taped sweeps of
// the derivative of the root's step function instead of the step function
// itself. Capsules keep their LIFO discipline, except that the driver may
// release one below the newest.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_CAPSULES_H
#define CAPSULE_RUNTIME_CAPSULES_H

#include "abi.h"

namespace capsule {

struct Capsule;

/// Runs a computation from its frame until it yields (returns true) or
/// returns (false), charging the thread's step budget.
using StepRunner = bool (*)(const void *Context, void *Frame);

/// The StepRunner of the root's own step function; Context is its
/// capsule_entry.
bool runStepFunction(const void *Entry, void *Frame);

/// A capsule of the root computation of Entry, whose arguments are in
/// Frame, before its first step.
Capsule *captureStart(const capsule_entry *Entry, void *Frame);

/// Rolls memory back to C, which must be the newest live capsule, and runs
/// Runner(Context, frame) for Limit steps from there. Returns whether it
/// yielded; *Done is set to the steps it took.
bool runFrom(Capsule *C, uint64_t Limit, StepRunner Runner, const void *Context,
             uint64_t *Done);

/// A new capsule of the state a run from From left after Done steps.
Capsule *captureAfter(Capsule *From, uint64_t Done);

/// Runs Runner(Context, frame) for Limit steps on from the state memory is
/// in now, which must be where a run stopped (it yielded) after the newest
/// live capsule was taken: unlike runFrom, nothing is rolled back, so the
/// capsules taken on the way may be released while the run goes on.
bool runOn(uint64_t Limit, StepRunner Runner, const void *Context,
           uint64_t *Done);

/// A new capsule of the state memory is in now, Steps steps from the start
/// of the newest live capsule's root.
Capsule *captureNow(uint64_t Steps);

uint64_t capsuleSteps(const Capsule *C);

/// capsule_release for the driver's capsules, which may also release one
/// that is not the newest: the newer ones keep their states. Returns how
/// many newer capsules are live.
uint64_t releaseCapsule(Capsule *C);

} // namespace capsule

#endif // CAPSULE_RUNTIME_CAPSULES_H
