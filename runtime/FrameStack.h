//===- FrameStack.h - Per-thread stack of resumable activation records ----===//
//
// Interruptible code keeps the activation records of resumable functions on
// a frame stack of its own, not on the machine stack, so a yield can return
// all the way out and a later run can continue from the same frames. Each
// thread's frame stack (DefaultFrameStackBytes, or CAPSULE_FRAME_STACK) is
// the first part of its runtime region (RuntimeRegion.h), reserved on first
// use of either the frame stack or the arena, and committed in
// FrameCommitStep steps as frames reach further (abi.h:
// __capsule_frame_grow). Committed memory is never given back while the
// thread runs: the journal may still have to restore it.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_FRAMESTACK_H
#define CAPSULE_RUNTIME_FRAMESTACK_H

#include "abi.h"
#include "capsule/capsule.h"

#include <cstdint>

namespace capsule {

/// The reservation when CAPSULE_FRAME_STACK is not set.
constexpr uint64_t DefaultFrameStackBytes = uint64_t(1) << 30;
/// Commitment grows in steps of this many bytes.
constexpr uint64_t FrameCommitStep = uint64_t(1) << 20;
/// Frames are aligned to, and sized in multiples of, this many bytes.
constexpr uint64_t FrameAlignment = 64;

/// The size of the frame stacks threads reserve: CAPSULE_FRAME_STACK rounded
/// up to whole pages, or DefaultFrameStackBytes. The variable is read once
/// per process; an invalid value stops the program with exit status 2.
uint64_t frameStackReservation();

/// The base of this thread's frame stack, reserved (and its first step
/// committed) if this is the first use.
char *frameStackBase();

/// Bytes this thread has reserved and committed (0 before the first use).
uint64_t frameStackReservedBytes();
uint64_t frameStackCommittedBytes();

/// Unmaps this thread's frame stack and the shadow spans of its region (the
/// arena part stays reserved). Nothing may refer to them any more: no live
/// capsule, no journal entry. Runs at thread exit.
void frameStackFree();

} // namespace capsule

#endif // CAPSULE_RUNTIME_FRAMESTACK_H
