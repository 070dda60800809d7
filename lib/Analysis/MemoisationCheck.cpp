//===- MemoisationCheck.cpp - Caches kept in static storage ---------------===//
//
// A gradient is the derivative of what one call computes; memory that held
// values before the call is constant to it (docs/user-guide.md). A function
// that memoises in static storage across calls breaks that on a cache hit:
//
//   static double last_x = NAN, last_y;
//   if (x == last_x) return last_y;   // computed by an earlier call
//
// returns a value whose dependence on x was computed outside the gradient,
// so its derivative would be silently lost (a zero where the user expects
// the derivative of what the function computes). The hallmark is an
// equality comparison of a value that carries derivatives with static
// storage the same code stores such values to: the cache's key. It is
// refused, naming the storage; a cache filled and hit within one call would
// be right, but nothing at compile time tells the two apart.
//===----------------------------------------------------------------------===//
#include "Reverse/DerivativeRules.h"
#include "Reverse/GradientGenerator.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace capsule {

/// Whether the function stores a value that carries derivatives to \p G.
bool GradientGenerator::storesVariedTo(const GlobalVariable &G) const {
  for (const BasicBlock &BB : P)
    for (const Instruction &I : BB)
      if (auto *SI = dyn_cast<StoreInst>(&I))
        if (AI.isVaried(SI->getValueOperand()) &&
            getUnderlyingObject(SI->getPointerOperand()) == &G)
          return true;
  return false;
}

const GlobalVariable *
GradientGenerator::cacheKeyCompared(const FCmpInst &Cmp) const {
  if (!Cmp.isEquality() || Cmp.getMetadata(RuleComparisonMD))
    return nullptr;
  for (unsigned K = 0; K < 2; ++K) {
    auto *Key = dyn_cast<LoadInst>(Cmp.getOperand(1 - K));
    if (!Key || !AI.isVaried(Cmp.getOperand(K)))
      continue;
    auto *G =
        dyn_cast<GlobalVariable>(getUnderlyingObject(Key->getPointerOperand()));
    if (G && !G->isConstant() && storesVariedTo(*G))
      return G;
  }
  return nullptr;
}

void GradientGenerator::checkMemoisation(const FCmpInst &Cmp) {
  const GlobalVariable *Key = cacheKeyCompared(Cmp);
  if (!Key)
    return;
  unsupported(Cmp, "memoisation in static storage: a differentiated value is "
                   "compared for equality with '" +
                       Key->getName() +
                       "', which this code also stores such values to (the "
                       "key of a cache kept across calls); on a cache hit "
                       "the result would come from an earlier call and its "
                       "derivative would be lost. Differentiate the "
                       "computation without the cache");
}

} // namespace capsule
