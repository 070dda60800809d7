//===- JournalUnswitch.h - Loops without journal barriers -------*- C++ -*-===//
//
// A journal barrier that stays inside its loop (a conditional store, a
// scatter, a stride the range hoist does not take) is a branch and a rare
// call in every iteration, which keeps the loop from vectorizing even while
// no snapshot is live, that is in every plain run. Such an innermost loop is
// versioned on the journal's liveness, read once at the function's entry:
// the copy that runs without a live snapshot has no barriers and compiles
// as the primal's loop does; the other keeps them.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_JOURNALUNSWITCH_H
#define CAPSULE_JOURNALUNSWITCH_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class CallInst;
class Function;
class Value;
} // namespace llvm

namespace capsule {

/// Versions each small innermost loop of \p F that holds one of the
/// \p Barriers (journal barrier pseudo-calls) on \p Live, a value of the
/// entry block: the loop runs with its barriers when \p Live, a copy
/// without them otherwise. \p Barriers stay valid (the copies' barriers
/// are erased, not theirs).
void unswitchJournalLoops(llvm::Function &F,
                          llvm::ArrayRef<llvm::CallInst *> Barriers,
                          llvm::Value *Live);

} // namespace capsule

#endif
