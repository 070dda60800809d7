//===- LoopTapeReservation.h - One tape reservation per loop ----*- C++ -*-===//
//
// A forward sweep pushes a record per iteration of a loop whose body has
// values to tape; each inline push compares the tape's room with the
// record's size and may call the runtime, so the loop cannot be vectorized
// and pays a compare and branch per iteration. Where the loop's trip count
// is known on entry, one push of all its records before the loop does the
// same: the records land where the pushes would have put them, one after
// another in one chunk. The reverse sweep's loop pops them with one check
// too: a copy of the loop without per-record checks runs when the chunk
// holds all its records.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LOOPTAPERESERVATION_H
#define CAPSULE_LOOPTAPERESERVATION_H

#include "llvm/IR/PassManager.h"

namespace capsule {

/// For each innermost loop with a computable trip count whose body pushes
/// (pops) one record per iteration and touches the tape no other way,
/// pushes all the loop's records in its preheader and drops the
/// per-iteration check (runs a copy without it when the chunk holds all
/// the records to pop).
/// Runs before the vectorizer (clang's pipeline) on the functions Capsule
/// generated; others have no tagged pushes.
class LoopTapeReservationPass
    : public llvm::PassInfoMixin<LoopTapeReservationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace capsule

#endif
