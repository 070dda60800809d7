//===- ReplayCalls.h - Replayed non-deterministic calls ---------*- C++ -*-===//
//
// Resuming a capsule (and so every recomputation of a checkpointed gradient)
// runs code again. A call whose result is not a function of the program's
// memory (rand and kin, clocks, input) would return something else the
// second time, and the checkpointed gradient would differ from the plain
// one. In interruptible code each such call is therefore wrapped: its first
// execution records its result and the bytes it writes through its pointer
// arguments in the runtime's replay log, and every later execution of the
// same call takes them from the log instead of calling (runtime/Replay.h).
// docs/checkpointing.md lists the functions; a program adds its own with
// CAPSULE_REPLAY(fn) (capsule.h).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_REPLAYCALLS_H
#define CAPSULE_REPLAYCALLS_H

namespace llvm {
class BasicBlock;
class CallBase;
class Function;
} // namespace llvm

namespace capsule {

class RuntimeABI;

/// Wraps every call in \p F of a function whose results are replayed.
/// Reports an error for a function registered with CAPSULE_REPLAY whose
/// result cannot be recorded; returns false then.
bool replayNondeterministicCalls(llvm::Function &F,
                                 const llvm::Function &Origin, RuntimeABI &ABI);

/// Whether \p Call is the call a replay wrapper makes on first execution
/// (its effects are not repeated, so it needs no warning).
bool isReplayedCall(const llvm::CallBase &Call);

/// Whether \p BB is one of a replay wrapper's two arms (calling and
/// recording, or taking from the log). The arms cost no steps: a capsule
/// resumed later takes the other arm, and must count the same steps.
bool isReplayArm(const llvm::BasicBlock &BB);

} // namespace capsule

#endif
