//===- JournalUnswitch.cpp - Loops without journal barriers ---------------===//
#include "Interrupt/JournalUnswitch.h"

#include "Support/LoopVersions.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace capsule {

namespace {

/// The headers of the innermost loops that hold a barrier.
SetVector<BasicBlock *> headersOfBarrierLoops(ArrayRef<CallInst *> Barriers,
                                              const LoopInfo &LI) {
  SetVector<BasicBlock *> Headers;
  for (CallInst *Barrier : Barriers)
    if (Loop *L = LI.getLoopFor(Barrier->getParent()))
      if (L->isInnermost())
        Headers.insert(L->getHeader());
  return Headers;
}

} // namespace

void unswitchJournalLoops(Function &F, ArrayRef<CallInst *> Barriers,
                          Value *Live) {
  SetVector<BasicBlock *> Headers;
  {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    Headers = headersOfBarrierLoops(Barriers, LI);
  }
  // Versioning changes the dominators of the blocks after a loop: each
  // loop is found again in analyses of the function as it is now.
  for (BasicBlock *Header : Headers) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    Loop *L = LI.getLoopFor(Header);
    if (!L || L->getHeader() != Header || !prepareToVersion(*L, DT, LI))
      continue;
    // The original keeps its barriers, for runs with a live snapshot; the
    // copy runs without.
    ValueToValueMapTy VMap;
    versionLoop(*L, Live, ".journal.quiet", VMap, DT, LI);
    for (CallInst *Barrier : Barriers)
      if (Value *Copy = VMap.lookup(Barrier))
        cast<CallInst>(Copy)->eraseFromParent();
  }
}

} // namespace capsule
