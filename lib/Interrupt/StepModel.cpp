//===- StepModel.cpp - What a step is, and which functions can yield ------===//
#include "Interrupt/StepModel.h"

#include "Interrupt/ReplayCalls.h"
#include "Interrupt/StaticInits.h"
#include "Support/ParallelRegions.h"

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

bool StepModel::chargesWork(const BasicBlock &BB) const {
  return !OnlyCounted && !isReplayArm(BB) && !callsStaticInit(BB) &&
         !InCritical.count(&BB) && !isRuleCode(*BB.getParent());
}

uint64_t StepModel::blockCost(const BasicBlock &BB) const {
  if (OnlyCounted)
    return BB.getParent() == OnlyCounted && BB.isEntryBlock();
  if (!chargesWork(BB))
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
  RecursionFinder(const SetVector<Function *> &Candidates,
                  const SmallPtrSetImpl<const Function *> &TeamCode)
      : Candidates(Candidates), TeamCode(TeamCode) {}

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
          if (Candidates.count(Callee) && !TeamCode.count(Callee))
            visit(Callee);
    States[F] = State::Done;
  }

  const SetVector<Function *> &Candidates;
  // Runs atomically even when it recurses.
  const SmallPtrSetImpl<const Function *> &TeamCode;
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

/// Removes from \p Fns, until none is left, the functions that call
/// themselves through others of \p Fns (\p Atomic excepted: it runs
/// without yielding, recursive or not) and, with \p DropCallersOfOthers,
/// those that call a defined function outside \p Fns.
void keepBoundable(SetVector<Function *> &Fns,
                   const SmallPtrSetImpl<const Function *> &Atomic,
                   bool DropCallersOfOthers) {
  while (true) {
    if (DropCallersOfOthers)
      dropCallersOfResumables(Fns);
    SmallVector<Function *, 4> Recursive =
        RecursionFinder(Fns, Atomic).recursive();
    if (Recursive.empty())
      return;
    for (Function *F : Recursive)
      Fns.remove(F);
  }
}

} // namespace

/// Bounds of \p Fns (closed under calls, but for team code that charges
/// itself), callees first, so that a bound includes its callees' bounds.
void StepModel::boundInPostOrder(const SetVector<Function *> &Fns) {
  SmallVector<Function *, 8> Order;
  DenseSet<Function *> Seen;
  std::function<void(Function *)> PostOrder = [&](Function *F) {
    if (!Seen.insert(F).second || !Fns.count(F))
      return;
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = definedCallee(*Call))
          PostOrder(Callee);
    Order.push_back(F);
  };
  for (Function *F : Fns)
    PostOrder(F);
  for (Function *F : Order)
    LeafBounds[F] = longestPath(*F);
}

/// Team code without loops or recursion is charged its bound where it is
/// called, like a leaf. The rest charges the blocks of its loops itself, and
/// nothing else: which of a thread's blocks outside loops run can depend on
/// the schedule (a thread that got no chunk of a dynamic loop skips the
/// first chunk's path), while the iterations of the team's loops are the
/// same in every run.
void StepModel::boundTeamCode(ArrayRef<Function *> Team) {
  SetVector<Function *> Bounded;
  for (Function *F : Team) {
    LeafBounds[F] = 0;
    SmallPtrSet<const BasicBlock *, 8> Inside = blocksInCriticalSections(*F);
    InCritical.insert(Inside.begin(), Inside.end());
    if (isAcyclic(*F))
      Bounded.insert(F);
  }
  SmallPtrSet<const Function *, 1> NoneAtomic;
  keepBoundable(Bounded, NoneAtomic, /*DropCallersOfOthers=*/false);
  boundInPostOrder(Bounded);
}

bool StepModel::chargesItself(const Function &F) const {
  return isTeamCode(F) && !isAcyclic(F);
}

StepModel::StepModel(ArrayRef<Function *> Functions, ArrayRef<Function *> Roots,
                     ArrayRef<Function *> Team, ArrayRef<Function *> Rules,
                     const Function *OnlyCounted)
    : TeamCode(Team.begin(), Team.end()), RuleCode(Rules.begin(), Rules.end()),
      OnlyCounted(OnlyCounted) {
  boundTeamCode(Team);
  for (Function *F : Rules)
    LeafBounds[F] = 0;
  // Team and rule code count as leaves for their callers; they are not
  // candidates.
  SetVector<Function *> Leaves(Team.begin(), Team.end());
  Leaves.insert(Rules.begin(), Rules.end());
  SmallPtrSet<const Function *, 8> Atomic(TeamCode);
  Atomic.insert(RuleCode.begin(), RuleCode.end());
  for (Function *F : Functions)
    if (!is_contained(Roots, F) && !Atomic.count(F) && isAcyclic(*F))
      Leaves.insert(F);
  keepBoundable(Leaves, Atomic, /*DropCallersOfOthers=*/true);
  for (ArrayRef<Function *> Group : {Team, Rules})
    for (Function *F : Group)
      Leaves.remove(F);
  boundInPostOrder(Leaves);
}

} // namespace capsule
