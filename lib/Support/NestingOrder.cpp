//===- NestingOrder.cpp - Which marker calls to lower first ---------------===//
#include "Support/NestingOrder.h"

#include "Analysis/Activity.h"
#include "Analysis/CallClassifier.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

void addReachable(Function &F, SmallPtrSetImpl<const Function *> &Reached) {
  SmallVector<Function *, 16> Work;
  auto Visit = [&](Function *G) {
    if (G && !G->isDeclaration() && Reached.insert(G).second)
      Work.push_back(G);
  };
  Visit(&F);
  while (!Work.empty())
    for (Instruction &I : instructions(*Work.pop_back_val())) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (!Call->isIndirectCall()) {
        Visit(Call->getCalledFunction());
        continue;
      }
      for (Function *T :
           indirectCallTargets(*F.getParent(), Call->getFunctionType()))
        Visit(T);
    }
}

bool reachesAny(Function &F,
                const SmallPtrSetImpl<const Function *> &Containing) {
  SmallPtrSet<const Function *, 16> Reached;
  addReachable(F, Reached);
  return any_of(Reached,
                [&](const Function *G) { return Containing.contains(G); });
}

/// The global with a shadow that constant \p C names, if any.
static const GlobalVariable *shadowedGlobalIn(const Constant *C) {
  if (auto *G = dyn_cast<GlobalVariable>(C))
    return constantHasShadow(G) ? G : nullptr;
  if (isa<GlobalValue>(C))
    return nullptr;
  for (const Use &U : C->operands())
    if (auto *Operand = dyn_cast<Constant>(U.get()))
      if (const GlobalVariable *G = shadowedGlobalIn(Operand))
        return G;
  return nullptr;
}

const GlobalVariable *namedShadowedGlobal(Function &F) {
  SmallPtrSet<const Function *, 16> Reached;
  addReachable(F, Reached);
  for (const Function *G : Reached)
    for (const Instruction &I : instructions(*G))
      for (const Use &U : I.operands())
        if (auto *C = dyn_cast<Constant>(U.get()))
          if (const GlobalVariable *GV = shadowedGlobalIn(C))
            return GV;
  return nullptr;
}

} // namespace capsule
