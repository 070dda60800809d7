//===- Capsules.h - The driver's capsules, for other runtime parts --------===//
//
// The checkpointing driver (Checkpointed.cpp) builds on the capsules of
// Interrupt.cpp but runs its own step functions: untaped and taped sweeps of
// the derivative of the root's step function instead of the step function
// itself. Capsules keep their LIFO discipline.
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

uint64_t capsuleSteps(const Capsule *C);

/// capsule_release for the driver's capsules.
void releaseCapsule(Capsule *C);

} // namespace capsule

#endif // CAPSULE_RUNTIME_CAPSULES_H
