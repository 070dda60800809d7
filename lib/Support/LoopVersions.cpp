//===- LoopVersions.cpp - Two versions of a loop --------------------------===//
#include "Support/LoopVersions.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

namespace capsule {

namespace {

/// Loops larger than this are not copied: the copy doubles their code, and
/// loops this large seldom vectorize.
constexpr unsigned MaxCopiedInstructions = 512;

/// LLVM's own rule (no indirectbr, no call that must not be duplicated),
/// and neither blocks whose address is taken, tokens nor convergent calls.
bool isCopyable(const Loop &L) {
  if (!L.isSafeToClone())
    return false;
  unsigned Size = 0;
  for (BasicBlock *BB : L.blocks()) {
    if (BB->hasAddressTaken())
      return false;
    Size += BB->size();
    for (Instruction &I : *BB) {
      if (I.getType()->isTokenTy())
        return false;
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isConvergent())
        return false;
    }
  }
  return Size <= MaxCopiedInstructions;
}

/// The exits' phis take the copy's values from the copy's exiting blocks.
void mergeAtExits(const Loop &L, ValueToValueMapTy &VMap) {
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  for (BasicBlock *Exit : Exits)
    for (PHINode &Phi : Exit->phis())
      for (unsigned I = 0, E = Phi.getNumIncomingValues(); I != E; ++I) {
        Value *V = Phi.getIncomingValue(I);
        Value *Copy = VMap.lookup(V);
        Phi.addIncoming(Copy ? Copy : V,
                        cast<BasicBlock>(VMap[Phi.getIncomingBlock(I)]));
      }
}

} // namespace

bool prepareToVersion(Loop &L, DominatorTree &DT, LoopInfo &LI) {
  if (!isCopyable(L))
    return false;
  simplifyLoop(&L, &DT, &LI, /*SE=*/nullptr, /*AC=*/nullptr, /*MSSAU=*/nullptr,
               /*PreserveLCSSA=*/false);
  if (!L.isLoopSimplifyForm())
    return false;
  formLCSSA(L, DT, &LI, /*SE=*/nullptr);
  return true;
}

void versionLoop(Loop &L, Value *Cond, StringRef CopySuffix,
                 ValueToValueMapTy &VMap, DominatorTree &DT, LoopInfo &LI) {
  BasicBlock *Guard = L.getLoopPreheader();
  BasicBlock *Preheader = SplitBlock(Guard, Guard->getTerminator(), &DT, &LI,
                                     nullptr, Guard->getName() + ".versioned");
  SmallVector<BasicBlock *, 16> Copies;
  Loop *Copy = cloneLoopWithPreheader(Preheader, Guard, &L, VMap, CopySuffix,
                                      &LI, &DT, Copies);
  remapInstructionsInBlocks(Copies, VMap);
  mergeAtExits(L, VMap);
  Instruction *Old = Guard->getTerminator();
  BranchInst::Create(Preheader, Copy->getLoopPreheader(), Cond,
                     Old->getIterator());
  Old->eraseFromParent();
}

} // namespace capsule
