//===- AtomicLoops.h - Counted inner loops charged once ---------*- C++ -*-===//
//
// A budget check at every loop header keeps the fastest loops from being
// unrolled or vectorized (a loop with a second exit is neither) and costs a
// compare per iteration. An innermost loop whose trip count is known on
// entry and that calls no resumable function therefore runs atomically: its
// whole cost, trip count times the costliest iteration, is charged once in
// its preheader, and its header is no yield point (paper §7.1: counter
// updates hoisted where control flow allows).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_ATOMICLOOPS_H
#define CAPSULE_ATOMICLOOPS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace capsule {

class RuntimeABI;
class StepModel;

struct AtomicLoops {
  /// Every block of the atomic loops: charged by their preheaders.
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> Blocks;
  /// Their headers: no yield points.
  llvm::SmallPtrSet<llvm::BasicBlock *, 4> Headers;
};

/// Finds the atomic loops of resumable function \p F, whose blocks cost
/// \p Costs, and charges each in its preheader.
AtomicLoops
chargeAtomicLoops(llvm::Function &F,
                  const llvm::DenseMap<llvm::BasicBlock *, uint64_t> &Costs,
                  const StepModel &Model, RuntimeABI &ABI);

} // namespace capsule

#endif
