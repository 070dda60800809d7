//===- RuleCode.cpp - Users' gradient rules in checkpointed code ---------===//
#include "Interrupt/RuleCode.h"

#include "Support/Diagnostics.h"
#include "Support/LibraryRules.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace capsule {

std::optional<GradientRule> userGradientRule(const Function &Callee) {
  std::optional<GradientRule> Rule = gradientRule(Callee);
  if (Rule && libraryRoutineOfRule(*Rule->Augment))
    return std::nullopt;
  return Rule;
}

namespace {

/// The parameters of augmented rule \p Augment of \p Fn that are shadows:
/// each follows an argument of \p Fn that is not floating point.
SmallVector<const Argument *, 4> shadowParams(const Function &Fn,
                                              const Function &Augment) {
  unsigned Next = Augment.arg_size() - ruleParams(Augment).size();
  SmallVector<const Argument *, 4> Shadows;
  for (const Argument &A : Fn.args()) {
    ++Next;
    if (hasShadowParam(A.getType()))
      Shadows.push_back(Augment.getArg(Next++));
  }
  return Shadows;
}

/// Where \p Augment uses a pointer into shadow memory in a way that may
/// write there, and how: a store, atomic or memory intrinsic through it, or
/// handing it to another function. Pointers derived from a shadow (GEPs,
/// phis, pointers loaded from shadow memory) are followed.
std::optional<std::pair<const Instruction *, std::string>>
shadowWrite(const Function &Augment, ArrayRef<const Argument *> Shadows) {
  using Found = std::pair<const Instruction *, std::string>;
  SetVector<const Value *> Work(Shadows.begin(), Shadows.end());
  for (size_t I = 0; I < Work.size(); ++I) {
    const Value *V = Work[I];
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
          isa<SelectInst>(U)) {
        if (U->getType()->isPointerTy())
          Work.insert(U);
        continue;
      }
      if (auto *Load = dyn_cast<LoadInst>(U)) {
        if (Load->getType()->isPointerTy())
          Work.insert(Load);
        continue;
      }
      if (auto *Store = dyn_cast<StoreInst>(U)) {
        if (Store->getPointerOperand() == V)
          return Found(Store, "stores to it");
        continue;
      }
      if (isa<AtomicRMWInst>(U) || isa<AtomicCmpXchgInst>(U))
        return Found(cast<Instruction>(U), "updates it atomically");
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(Call))
        continue;
      if (auto *Transfer = dyn_cast<MemTransferInst>(Call);
          Transfer && Transfer->getRawDest() != V)
        continue;
      if (isa<MemIntrinsic>(Call))
        return Found(Call, "writes it with a memory intrinsic");
      bool OnlyRead = all_of(Call->args(), [&](const Use &Arg) {
        return Arg.get() != V || Call->onlyReadsMemory(Arg.getOperandNo());
      });
      if (OnlyRead)
        continue;
      const Function *Callee = Call->getCalledFunction();
      return Found(Call, "hands it to " +
                             (Callee ? "'" + displayName(*Callee) + "'"
                                     : std::string("a function called "
                                                   "through a pointer")));
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string>
whyUserRuleNotCheckpointable(const Function &Callee, const GradientRule &Rule) {
  std::string Name = displayName(Callee);
  auto NoBody = [&](const Function &F, StringRef What) {
    return "a call of '" + Name + "', which has a gradient rule of yours, " +
           "inside a checkpointed gradient needs the body of " + What.str() +
           " '" + displayName(F) +
           "' in this module (link with LTO if it is in another file): the "
           "schedule re-executes it, and the journal must see what it writes";
  };
  // Green runs call the function itself, which does not give the shadow
  // of its result.
  if (Callee.getReturnType()->isPointerTy())
    return "a call of '" + Name +
           "', which has a gradient rule of yours and returns a pointer, "
           "inside a checkpointed gradient is not supported yet";
  if (Callee.isDeclaration())
    return NoBody(Callee, "the function");
  if (Rule.Augment->isDeclaration())
    return NoBody(*Rule.Augment, "its augmented rule");
  if (Rule.Gradient->isDeclaration())
    return NoBody(*Rule.Gradient, "its gradient rule");
  return std::nullopt;
}

bool checkAugmentLeavesShadows(const Function &Callee, const Function &Augment,
                               const Function &Clone) {
  auto Write = shadowWrite(Clone, shadowParams(Callee, Clone));
  if (!Write)
    return true;
  std::string Name = displayName(Callee);
  reportNotInterruptible(
      *Write->first, Augment,
      "the augmented rule '" + displayName(Augment) + "' of '" + Name +
          "', which a checkpointed gradient runs, may write to a shadow (it " +
          Write->second + "): green runs, which run '" + Name +
          "' itself, would not repeat that; add to the shadows in the "
          "gradient rule only");
  return false;
}

} // namespace capsule
