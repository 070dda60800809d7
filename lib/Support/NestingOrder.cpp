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

/// Adds the globals with shadows that constant \p C names.
static void addShadowedGlobalsIn(Constant *C,
                                 SmallSetVector<GlobalVariable *, 4> &Out) {
  if (auto *G = dyn_cast<GlobalVariable>(C)) {
    if (constantHasShadow(G))
      Out.insert(G);
    return;
  }
  if (isa<GlobalValue>(C))
    return;
  for (Use &U : C->operands())
    if (auto *Operand = dyn_cast<Constant>(U.get()))
      addShadowedGlobalsIn(Operand, Out);
}

SmallSetVector<GlobalVariable *, 4> namedShadowedGlobals(Function &F) {
  SmallPtrSet<const Function *, 16> Reached;
  addReachable(F, Reached);
  SmallSetVector<GlobalVariable *, 4> Named;
  for (const Function *G : Reached)
    for (const Instruction &I : instructions(*G))
      for (const Use &U : I.operands())
        if (auto *C = dyn_cast<Constant>(U.get()))
          addShadowedGlobalsIn(C, Named);
  return Named;
}

} // namespace capsule
