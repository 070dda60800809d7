//===- ReverseVectorization.cpp - Vectorizing reverse sweeps --------------===//
#include "Reverse/ReverseVectorization.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace capsule {
namespace {

/// Accesses closer than this to a store of the same object, a constant
/// distance apart that both keep as the loop runs, are the stencil pattern:
/// a 64-byte cache line holds the neighbours a wide load would take.
constexpr int64_t NeighbourBytes = 64;

/// Loops with more moving accesses than this are taken for loops that
/// update neighbours rather than compared pair by pair.
constexpr unsigned MaxComparedAccesses = 256;

/// One load or store of a loop at Start + Step * iteration.
struct Access {
  const SCEV *Start;
  const SCEV *Step;
  bool IsStore;
};

/// Whether two accesses with the same step are a constant distance under
/// NeighbourBytes apart, and one of them stores.
bool areNeighbours(const Access &A, const Access &B, ScalarEvolution &SE) {
  if (A.Step != B.Step || !(A.IsStore || B.IsStore))
    return false;
  // Pointers of different objects have no difference (SCEVCouldNotCompute).
  auto *Distance = dyn_cast<SCEVConstant>(SE.getMinusSCEV(A.Start, B.Start));
  return Distance && !Distance->isZero() &&
         Distance->getAPInt().abs().slt(NeighbourBytes);
}

/// Whether the blocks of loop \p L outside its inner loops update
/// neighbours (areNeighbours), or store where scalar evolution cannot say
/// how the address moves (a wrapped index, an index array): those are
/// taken for neighbours, to be safe.
bool updatesNeighbours(const Loop &L, const LoopInfo &LI, ScalarEvolution &SE) {
  SmallVector<Access, 16> Accesses;
  for (BasicBlock *BB : L.blocks()) {
    if (LI.getLoopFor(BB) != &L)
      continue;
    for (Instruction &I : *BB) {
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr)
        continue;
      bool IsStore = isa<StoreInst>(I);
      const SCEV *Address = SE.getSCEV(Ptr);
      if (SE.isLoopInvariant(Address, &L))
        continue;
      auto *Moving = dyn_cast<SCEVAddRecExpr>(Address);
      if (!Moving || Moving->getLoop() != &L || !Moving->isAffine()) {
        if (IsStore)
          return true;
        continue;
      }
      Accesses.push_back(
          {Moving->getStart(), Moving->getStepRecurrence(SE), IsStore});
    }
  }
  if (Accesses.size() > MaxComparedAccesses)
    return true;
  for (unsigned A = 0; A < Accesses.size(); ++A)
    for (unsigned B = A + 1; B < Accesses.size(); ++B)
      if (areNeighbours(Accesses[A], Accesses[B], SE))
        return true;
  return false;
}

} // namespace

PreservedAnalyses ReverseVectorizationPass::run(Function &F,
                                                FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(ReverseSweepAttr) ||
      !F.hasFnAttribute(Attribute::NoImplicitFloat))
    return PreservedAnalyses::all();
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  // Straight-line reverse code gains nothing from the loop vectorizer and
  // loses to the SLP vectorizer (the header's GradBench ba).
  if (LI.empty())
    return PreservedAnalyses::all();
  for (Loop *L : LI.getLoopsInPreorder())
    if (updatesNeighbours(*L, LI, SE))
      return PreservedAnalyses::all();
  F.removeFnAttr(Attribute::NoImplicitFloat);
  // Only an attribute changed: the loops and dominators stand.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace capsule
