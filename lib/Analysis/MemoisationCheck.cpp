//===- MemoisationCheck.cpp - Caches kept in static storage ---------------===//
#include "Analysis/MemoisationCheck.h"

#include "Analysis/Activity.h"
#include "Reverse/DerivativeRules.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace capsule {
namespace {

/// Whether \p F stores a value that carries derivatives to \p G.
bool storesVariedTo(const Function &F, const GlobalVariable &G,
                    const ActivityInfo &AI) {
  for (const Instruction &I : instructions(F))
    if (auto *SI = dyn_cast<StoreInst>(&I))
      if (AI.isVaried(SI->getValueOperand()) &&
          getUnderlyingObject(SI->getPointerOperand()) == &G)
        return true;
  return false;
}

/// Whether \p Store writes at least the bytes \p Load reads.
bool storesWhatIsLoaded(const StoreInst &Store, const LoadInst &Load) {
  const DataLayout &DL = Load.getDataLayout();
  auto Address = [&](const Value *Ptr) {
    APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
    const Value *Base = Ptr->stripAndAccumulateConstantOffsets(
        DL, Offset, /*AllowNonInbounds=*/true);
    return std::make_pair(Base, Offset.getSExtValue());
  };
  return Address(Store.getPointerOperand()) ==
             Address(Load.getPointerOperand()) &&
         DL.getTypeStoreSize(Store.getValueOperand()->getType()) >=
             DL.getTypeStoreSize(Load.getType());
}

/// Whether every path from the function's entry to \p Load stores what it
/// loads: the value read is then this call's own, not one kept from an
/// earlier call. Fortran translated by f2c makes every local static, and a
/// local assigned before it is compared is no cache.
bool writtenEarlierInTheCall(const LoadInst &Load) {
  auto StoresIt = [&](const Instruction &I) {
    auto *Store = dyn_cast<StoreInst>(&I);
    return Store && storesWhatIsLoaded(*Store, Load);
  };
  const BasicBlock *Home = Load.getParent();
  if (std::any_of(Home->begin(), Load.getIterator(), StoresIt))
    return true;
  if (Home->isEntryBlock())
    return false;
  // Backwards from the load: a block that stores ends the path (any store
  // in it, the load's own block included when a loop comes back to it,
  // runs before the block's end).
  SmallVector<const BasicBlock *, 8> Work(predecessors(Home));
  SmallPtrSet<const BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second || any_of(*BB, StoresIt))
      continue;
    if (BB->isEntryBlock())
      return false;
    append_range(Work, predecessors(BB));
  }
  return true;
}

/// The loads of mutable globals \p V is, directly or through the phis and
/// selects that merge such loads with other values: optimized code keeps
/// the key in a register across a loop's iterations (the last key stored),
/// loading it from the global before the loop only.
SmallVector<LoadInst *, 2> staticLoadsBehind(Value *V) {
  SmallVector<LoadInst *, 2> Loads;
  SmallVector<Value *, 8> Work{V};
  SmallPtrSet<Value *, 8> Seen{V};
  while (!Work.empty()) {
    Value *U = Work.pop_back_val();
    if (auto *Load = dyn_cast<LoadInst>(U)) {
      auto *G = dyn_cast<GlobalVariable>(
          getUnderlyingObject(Load->getPointerOperand()));
      if (G && !G->isConstant())
        Loads.push_back(Load);
    } else if (auto *Phi = dyn_cast<PHINode>(U)) {
      for (Value *In : Phi->incoming_values())
        if (Seen.insert(In).second)
          Work.push_back(In);
    } else if (auto *Sel = dyn_cast<SelectInst>(U)) {
      for (Value *In : {Sel->getTrueValue(), Sel->getFalseValue()})
        if (Seen.insert(In).second)
          Work.push_back(In);
    }
  }
  return Loads;
}

/// Marks a load of static storage that the call writes first; a step
/// function of interruptible code, which starts where the last one
/// stopped, keeps the mark its whole function gave.
constexpr const char *WrittenFirstMD = "capsule.static.written.first";

/// Whether \p Load reads what its call stored, not a value kept from an
/// earlier call.
bool readsThisCallsValue(const LoadInst &Load) {
  return Load.getMetadata(WrittenFirstMD) || writtenEarlierInTheCall(Load);
}

/// The equality comparisons of floating-point values in \p F that may test
/// a cache's key.
SmallVector<FCmpInst *, 4> equalityTests(Function &F) {
  SmallVector<FCmpInst *, 4> Tests;
  for (Instruction &I : instructions(F))
    if (auto *Cmp = dyn_cast<FCmpInst>(&I))
      if (Cmp->isEquality() && !Cmp->getMetadata(RuleComparisonMD))
        Tests.push_back(Cmp);
  return Tests;
}

} // namespace

void recordStaticsWrittenFirst(Function &F) {
  for (FCmpInst *Cmp : equalityTests(F))
    for (Value *Operand : Cmp->operands())
      for (LoadInst *Load : staticLoadsBehind(Operand))
        if (writtenEarlierInTheCall(*Load))
          Load->setMetadata(WrittenFirstMD, MDNode::get(F.getContext(), {}));
}

std::optional<std::string> whyMemoisation(const FCmpInst &Cmp,
                                          const ActivityInfo &AI) {
  if (!Cmp.isEquality() || Cmp.getMetadata(RuleComparisonMD))
    return std::nullopt;
  for (unsigned K = 0; K < 2; ++K) {
    if (!AI.isVaried(Cmp.getOperand(K)))
      continue;
    for (const LoadInst *Load : staticLoadsBehind(Cmp.getOperand(1 - K))) {
      auto *G =
          cast<GlobalVariable>(getUnderlyingObject(Load->getPointerOperand()));
      if (!readsThisCallsValue(*Load) &&
          storesVariedTo(*Cmp.getFunction(), *G, AI))
        return "memoisation in static storage: a differentiated value is "
               "compared for equality with '" +
               G->getName().str() +
               "', which this code also stores such values to (the key of a "
               "cache kept across calls); on a cache hit the result would "
               "come from an earlier call and its derivative would be lost. "
               "Differentiate the computation without the cache";
    }
  }
  return std::nullopt;
}

} // namespace capsule
