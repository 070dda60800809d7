//===- MemoisationCheck.cpp - Caches kept in static storage ---------------===//
#include "Analysis/MemoisationCheck.h"

#include "Analysis/Activity.h"
#include "Reverse/DerivativeRules.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
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

/// The mutable globals \p V is loaded from, directly or through the phis
/// and selects that merge such loads with other values: optimized code
/// keeps the key in a register across a loop's iterations (the last key
/// stored), loading it from the global before the loop only.
SmallVector<const GlobalVariable *, 2> globalsLoaded(const Value *V) {
  SmallVector<const GlobalVariable *, 2> Globals;
  SmallVector<const Value *, 8> Work{V};
  SmallPtrSet<const Value *, 8> Seen{V};
  while (!Work.empty()) {
    const Value *U = Work.pop_back_val();
    if (auto *Load = dyn_cast<LoadInst>(U)) {
      auto *G = dyn_cast<GlobalVariable>(
          getUnderlyingObject(Load->getPointerOperand()));
      if (G && !G->isConstant())
        Globals.push_back(G);
    } else if (auto *Phi = dyn_cast<PHINode>(U)) {
      for (const Value *In : Phi->incoming_values())
        if (Seen.insert(In).second)
          Work.push_back(In);
    } else if (auto *Sel = dyn_cast<SelectInst>(U)) {
      for (const Value *In : {Sel->getTrueValue(), Sel->getFalseValue()})
        if (Seen.insert(In).second)
          Work.push_back(In);
    }
  }
  return Globals;
}

} // namespace

std::optional<std::string> whyMemoisation(const FCmpInst &Cmp,
                                          const ActivityInfo &AI) {
  if (!Cmp.isEquality() || Cmp.getMetadata(RuleComparisonMD))
    return std::nullopt;
  for (unsigned K = 0; K < 2; ++K) {
    if (!AI.isVaried(Cmp.getOperand(K)))
      continue;
    for (const GlobalVariable *G : globalsLoaded(Cmp.getOperand(1 - K)))
      if (storesVariedTo(*Cmp.getFunction(), *G, AI))
        return "memoisation in static storage: a differentiated value is "
               "compared for equality with '" +
               G->getName().str() +
               "', which this code also stores such values to (the key of a "
               "cache kept across calls); on a cache hit the result would "
               "come from an earlier call and its derivative would be lost. "
               "Differentiate the computation without the cache";
  }
  return std::nullopt;
}

} // namespace capsule
