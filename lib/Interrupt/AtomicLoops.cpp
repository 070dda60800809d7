//===- AtomicLoops.cpp - Counted inner loops charged once -----------------===//
#include "Interrupt/AtomicLoops.h"

#include "Analysis/LoopAnalyses.h"
#include "Interrupt/StepModel.h"
#include "Support/RuntimeABI.h"

#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <cstdlib>

using namespace llvm;

namespace capsule {

/// Whether \p L calls a function that can yield, or runs a parallel
/// region: a region's charge is not its work, which is usually the bulk of
/// a loop around it, so a loop of regions (a time loop whose steps are
/// parallel loops) keeps its yield point and splits between steps.
static bool callsResumableOrTeam(const Loop &L, const StepModel &Model) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = definedCallee(*Call))
          if (Model.isResumable(*Callee) || Model.isTeamCode(*Callee))
            return true;
  return false;
}

/// The costliest path through one iteration of innermost loop \p L: from
/// its header to a latch or an exit, the back edge removed.
static uint64_t
costliestIteration(const Loop &L,
                   const DenseMap<BasicBlock *, uint64_t> &Costs) {
  DenseMap<const BasicBlock *, uint64_t> FromHere;
  std::function<uint64_t(BasicBlock *)> Walk = [&](BasicBlock *BB) {
    auto It = FromHere.find(BB);
    if (It != FromHere.end())
      return It->second;
    uint64_t After = 0;
    for (BasicBlock *Succ : successors(BB))
      if (Succ != L.getHeader() && L.contains(Succ))
        After = std::max(After, Walk(Succ));
    return FromHere[BB] = Costs.lookup(BB) + After;
  };
  return Walk(L.getHeader());
}

/// CAPSULE_ATOMIC_LOOPS=0 in the compiler's environment makes every loop
/// header a yield point: for measuring what atomic loops gain, and for tests
/// that want many places to split a computation.
static bool atomicLoopsEnabled() {
  const char *Env = std::getenv("CAPSULE_ATOMIC_LOOPS");
  return !Env || StringRef(Env) != "0";
}

AtomicLoops chargeAtomicLoops(Function &F,
                              const DenseMap<BasicBlock *, uint64_t> &Costs,
                              const StepModel &Model, RuntimeABI &ABI) {
  AtomicLoops Atomic;
  if (!atomicLoopsEnabled())
    return Atomic;
  LoopAnalyses A(F);
  ScalarEvolution &SE = A.SE;
  SCEVExpander Expander(SE, F.getDataLayout(), "trips");
  for (Loop *L : A.LI.getLoopsInPreorder()) {
    BasicBlock *Preheader = L->getLoopPreheader();
    if (!L->isInnermost() || !Preheader || !L->getExitingBlock() ||
        callsResumableOrTeam(*L, Model))
      continue;
    // With a single exiting block the count is exact, so the charge is
    // what the loop runs, not a bound.
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Taken) || !Expander.isSafeToExpand(Taken))
      continue;
    IRBuilder<> B(Preheader->getTerminator());
    Type *I64 = B.getInt64Ty();
    Value *Trips = B.CreateAdd(
        B.CreateZExtOrTrunc(
            Expander.expandCodeFor(Taken, nullptr, Preheader->getTerminator()),
            I64),
        B.getInt64(1), "trips");
    Value *Cost = B.CreateMul(Trips, B.getInt64(costliestIteration(*L, Costs)));
    Value *Budget = ABI.budgetAddress(B);
    B.CreateStore(B.CreateSub(B.CreateLoad(I64, Budget, "steps.left"), Cost),
                  Budget);
    Atomic.Headers.insert(L->getHeader());
    Atomic.Blocks.insert(L->block_begin(), L->block_end());
  }
  return Atomic;
}

} // namespace capsule
