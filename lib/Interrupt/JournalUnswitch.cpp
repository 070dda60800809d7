//===- JournalUnswitch.cpp - Loops without journal barriers ---------------===//
#include "Interrupt/JournalUnswitch.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace capsule {

namespace {

/// Loops larger than this keep their barriers in one version: the copy
/// doubles their code, and loops this large seldom vectorize.
constexpr unsigned MaxCopiedInstructions = 512;

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

/// Whether \p L is small and may be copied: no instruction that must not
/// be duplicated, no block whose address is taken.
bool isCopyable(const Loop &L) {
  unsigned Size = 0;
  for (BasicBlock *BB : L.blocks()) {
    if (BB->hasAddressTaken())
      return false;
    Size += BB->size();
    for (Instruction &I : *BB) {
      if (I.getType()->isTokenTy())
        return false;
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Call->cannotDuplicate() || Call->isConvergent())
          return false;
    }
  }
  return Size <= MaxCopiedInstructions;
}

/// Gives \p L a preheader and exits reached only from the loop, through
/// whose phis every value of the loop used after it passes.
bool putInVersionableForm(Loop &L, DominatorTree &DT, LoopInfo &LI) {
  simplifyLoop(&L, &DT, &LI, /*SE=*/nullptr, /*AC=*/nullptr, /*MSSAU=*/nullptr,
               /*PreserveLCSSA=*/false);
  if (!L.isLoopSimplifyForm())
    return false;
  formLCSSA(L, DT, &LI, /*SE=*/nullptr);
  return true;
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

/// Copies \p L, branches to the original when \p Live and to the copy
/// otherwise, and erases the copy's barriers.
void versionOnLive(Loop &L, ArrayRef<CallInst *> Barriers, Value *Live,
                   DominatorTree &DT, LoopInfo &LI) {
  BasicBlock *Guard = L.getLoopPreheader();
  BasicBlock *LivePreheader =
      SplitBlock(Guard, Guard->getTerminator(), &DT, &LI, nullptr,
                 L.getHeader()->getName() + ".journal.live");
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Copies;
  Loop *Quiet = cloneLoopWithPreheader(LivePreheader, Guard, &L, VMap,
                                       ".journal.quiet", &LI, &DT, Copies);
  remapInstructionsInBlocks(Copies, VMap);
  mergeAtExits(L, VMap);
  Instruction *Old = Guard->getTerminator();
  BranchInst::Create(LivePreheader, Quiet->getLoopPreheader(), Live, Old);
  Old->eraseFromParent();
  for (CallInst *Barrier : Barriers)
    if (Value *Copy = VMap.lookup(Barrier))
      cast<CallInst>(Copy)->eraseFromParent();
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
    if (L && L->getHeader() == Header && isCopyable(*L) &&
        putInVersionableForm(*L, DT, LI))
      versionOnLive(*L, Barriers, Live, DT, LI);
  }
}

} // namespace capsule
