//===- LoopVersions.h - Two versions of a loop ------------------*- C++ -*-===//
//
// Some checks in generated loops are decided once before the loop: whether
// a snapshot is live (journal barriers), whether the tape's chunk holds all
// the records the loop will pop. Versioning copies such a loop: the
// preheader branches to the original when the condition holds and to the
// copy otherwise, and the caller then simplifies the copy for its case
// (LLVM's own unswitching takes such conditions only at -O3 and within a
// cost budget).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LOOPVERSIONS_H
#define CAPSULE_LOOPVERSIONS_H

#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace llvm {
class Loop;
class LoopInfo;
} // namespace llvm

namespace capsule {

/// Whether \p L may be copied (small, nothing that must not be duplicated,
/// no block whose address is taken) and is, after this call, in the form
/// versioning needs: a preheader, exits reached only from the loop, and
/// every value of the loop used after it passing through a phi of an exit.
bool prepareToVersion(llvm::Loop &L, llvm::DominatorTree &DT,
                      llvm::LoopInfo &LI);

/// Copies \p L, prepared by prepareToVersion, and makes its preheader
/// branch to \p L when \p Cond, a value of the preheader or above, and to
/// the copy otherwise, whose blocks' names end in \p CopySuffix. \p VMap
/// maps \p L's values to the copy's. The dominator tree of the blocks after
/// the loop is stale afterwards.
void versionLoop(llvm::Loop &L, llvm::Value *Cond, llvm::StringRef CopySuffix,
                 llvm::ValueToValueMapTy &VMap, llvm::DominatorTree &DT,
                 llvm::LoopInfo &LI);

} // namespace capsule

#endif
