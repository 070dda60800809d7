//===- StepModel.cpp - What a step is, and which functions can yield ------===//
#include "Interrupt/StepModel.h"

#include "Interrupt/ReplayCalls.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"

#include <functional>

using namespace llvm;

namespace capsule {

Function *definedCallee(const CallBase &Call) {
  Function *F = Call.getCalledFunction();
  return F && !F->isDeclaration() ? F : nullptr;
}

bool isFreeInstruction(const Instruction &I) {
  if (isa<PHINode>(I) || isa<DbgInfoIntrinsic>(I))
    return true;
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic();
  return false;
}

uint64_t StepModel::blockCost(const BasicBlock &BB) const {
  if (OnlyCounted)
    return BB.getParent() == OnlyCounted && BB.isEntryBlock();
  if (isReplayArm(BB))
    return 0;
  uint64_t Cost = 0;
  for (const Instruction &I : BB) {
    if (isFreeInstruction(I))
      continue;
    ++Cost;
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = definedCallee(*Call))
        Cost += leafBound(*Callee);
  }
  return Cost;
}

bool StepModel::isAcyclic(const Function &F) const {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 8> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  return BackEdges.empty();
}

/// The costliest path from entry to a return, in topological order of the
/// (acyclic) blocks.
uint64_t StepModel::longestPath(const Function &F) const {
  DenseMap<const BasicBlock *, uint64_t> CostToEnd;
  for (const BasicBlock *BB : post_order(&F)) {
    uint64_t After = 0;
    for (const BasicBlock *Succ : successors(BB))
      After = std::max(After, CostToEnd.lookup(Succ));
    CostToEnd[BB] = blockCost(*BB) + After;
  }
  return CostToEnd.lookup(&F.getEntryBlock());
}

namespace {

/// Finds the candidate leaves that call themselves through other
/// candidates; those are recursive, hence resumable.
class RecursionFinder {
public:
  explicit RecursionFinder(const SetVector<Function *> &Candidates)
      : Candidates(Candidates) {}

  SmallVector<Function *, 4> recursive() {
    for (Function *F : Candidates)
      visit(F);
    return OnCycle;
  }

private:
  enum class State { InProgress, Done };

  void visit(Function *F) {
    auto [It, New] = States.try_emplace(F, State::InProgress);
    if (!New) {
      if (It->second == State::InProgress)
        OnCycle.push_back(F);
      return;
    }
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = definedCallee(*Call))
          if (Candidates.count(Callee))
            visit(Callee);
    States[F] = State::Done;
  }

  const SetVector<Function *> &Candidates;
  DenseMap<Function *, State> States;
  SmallVector<Function *, 4> OnCycle;
};

/// Drops the candidates that call a defined function that is not a
/// candidate, until none does.
void dropCallersOfResumables(SetVector<Function *> &Candidates) {
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function *F : Candidates.getArrayRef()) {
      bool CallsResumable = any_of(instructions(*F), [&](Instruction &I) {
        auto *Call = dyn_cast<CallBase>(&I);
        Function *Callee = Call ? definedCallee(*Call) : nullptr;
        return Callee && !Candidates.count(Callee);
      });
      if (CallsResumable) {
        Candidates.remove(F);
        Changed = true;
        break;
      }
    }
  }
}

} // namespace

StepModel::StepModel(ArrayRef<Function *> Functions, ArrayRef<Function *> Roots,
                     const Function *OnlyCounted)
    : OnlyCounted(OnlyCounted) {
  SetVector<Function *> Leaves;
  for (Function *F : Functions)
    if (!is_contained(Roots, F) && isAcyclic(*F))
      Leaves.insert(F);
  while (true) {
    dropCallersOfResumables(Leaves);
    SmallVector<Function *, 4> Recursive = RecursionFinder(Leaves).recursive();
    if (Recursive.empty())
      break;
    for (Function *F : Recursive)
      Leaves.remove(F);
  }
  // Callees first, so that a leaf's bound includes its callees' bounds.
  SmallVector<Function *, 8> Order;
  DenseSet<Function *> Seen;
  std::function<void(Function *)> PostOrder = [&](Function *F) {
    if (!Seen.insert(F).second)
      return;
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = definedCallee(*Call))
          PostOrder(Callee);
    Order.push_back(F);
  };
  for (Function *F : Leaves)
    PostOrder(F);
  for (Function *F : Order)
    LeafBounds[F] = longestPath(*F);
}

} // namespace capsule
