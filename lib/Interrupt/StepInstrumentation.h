//===- StepInstrumentation.h - Steps, journal and arenas --------*- C++ -*-===//
#ifndef CAPSULE_STEPINSTRUMENTATION_H
#define CAPSULE_STEPINSTRUMENTATION_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"

namespace capsule {

class RuntimeABI;
class StepModel;

/// Prepares clone \p F of \p Origin for interruptible execution: allocation
/// calls go to the runtime's deterministic allocator, every store to memory
/// that may outlive a yield first passes the journal barrier, and, when
/// \p F is resumable, every block charges its cost to the step budget
/// (atomic loops once, in their preheaders; their headers are added to
/// \p AtomicHeaders). Without \p Journaled (a user's gradient rule, which
/// writes adjoints: RuleCode.h) nothing is journaled. Reports calls whose
/// effects a resumed capsule would repeat (warnings) and instructions it
/// cannot handle (errors); returns false after an error.
bool instrumentForInterruption(
    llvm::Function &F, const llvm::Function &Origin, const StepModel &Model,
    RuntimeABI &ABI, llvm::SmallPtrSetImpl<llvm::BasicBlock *> &AtomicHeaders,
    bool Journaled = true);

/// Replaces each realloc in \p F by malloc, a copy of what the old block
/// holds (the arena knows its size) and free. Checkpointed code does this
/// so that the reverse sweep sees an ordinary copy between two arena
/// blocks, whose adjoints are found at fixed offsets from them.
void reallocateByCopying(llvm::Function &F, RuntimeABI &ABI);

/// Replaces each realloc of a tangent block in forward-mode code in \p F
/// (__capsule_tangent_realloc) by a new tangent block, a copy of what the
/// old one holds and the old one's free: interruptible code keeps its
/// tangent blocks in the arena (the instrumentation redirects those
/// calls), where re-execution finds them, and the checkpointed gradient of
/// a tangent function sees an ordinary copy.
void reallocateTangentsByCopying(llvm::Function &F, RuntimeABI &ABI);

/// Records on each copy in \p F the kind of data it moves where that can
/// be told now: splitting into a step function moves stack slots and
/// parameters into its record, where their types no longer show (a struct
/// parameter returned as it came, `return q;`).
void recordCopyKinds(llvm::Function &F);

} // namespace capsule

#endif
