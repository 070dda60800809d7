//===- StaticInits.cpp - Function-local statics in interruptible code -----===//
#include "Interrupt/StaticInits.h"

#include "Support/CustomRules.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

using namespace llvm;

namespace capsule {

namespace {

const char *const StaticInitAttr = "capsule-static-init";
/// On the terminator of the block that calls an outlined initialization.
const char *const StaticInitCallMD = "capsule.static.init.call";

/// Where the code goes after \p Acquire:
/// {initialization, guard found set}, if its block ends by branching on
/// whether it returned nonzero.
std::optional<std::pair<BasicBlock *, BasicBlock *>>
acquireSuccessors(CallBase &Acquire) {
  auto *Br = dyn_cast<BranchInst>(Acquire.getParent()->getTerminator());
  auto *Cond = Br && Br->isConditional()
                   ? dyn_cast<ICmpInst>(Br->getCondition())
                   : nullptr;
  auto *Zero = Cond ? dyn_cast<ConstantInt>(Cond->getOperand(1)) : nullptr;
  if (!Cond || Cond->getOperand(0) != &Acquire || !Zero || !Zero->isZero() ||
      !Cond->isEquality())
    return std::nullopt;
  BasicBlock *Taken = Br->getSuccessor(0), *Other = Br->getSuccessor(1);
  if (Cond->getPredicate() == ICmpInst::ICMP_EQ)
    std::swap(Taken, Other);
  return std::make_pair(Taken, Other);
}

/// The blocks of the initialization: \p Start, whose first instruction is
/// the acquire, and those \p Init dominates, all leaving to \p End. Empty
/// if the code has another shape.
SmallVector<BasicBlock *, 8> initializationBlocks(BasicBlock *Start,
                                                  BasicBlock *Init,
                                                  BasicBlock *End,
                                                  const DominatorTree &DT) {
  if (Init == End || Init->getSinglePredecessor() != Start)
    return {};
  SmallVector<BasicBlock *, 8> Blocks{Start};
  for (BasicBlock &BB : *Start->getParent())
    if (DT.dominates(Init, &BB))
      Blocks.push_back(&BB);
  for (BasicBlock *BB : Blocks)
    for (BasicBlock *Succ : successors(BB))
      if (Succ != End && !is_contained(Blocks, Succ))
        return {};
  return Blocks;
}

/// The initialization \p Acquire starts, outlined, or null.
Function *outlineInitialization(CallBase &Acquire) {
  Function &F = *Acquire.getFunction();
  std::optional<std::pair<BasicBlock *, BasicBlock *>> Succs =
      acquireSuccessors(Acquire);
  if (!Succs)
    return nullptr;
  if (&Acquire != &Acquire.getParent()->front())
    SplitBlock(Acquire.getParent(), &Acquire);
  DominatorTree DT(F);
  SmallVector<BasicBlock *, 8> Blocks = initializationBlocks(
      Acquire.getParent(), Succs->first, Succs->second, DT);
  if (Blocks.empty())
    return nullptr;
  CodeExtractor Extractor(Blocks, &DT, /*AggregateArgs=*/false, nullptr,
                          nullptr, nullptr, /*AllowVarArgs=*/false,
                          /*AllowAlloca=*/true, nullptr, "capsule.static.init");
  if (!Extractor.isEligible())
    return nullptr;
  CodeExtractorAnalysisCache Cache(F);
  Function *Init = Extractor.extractCodeRegion(Cache);
  if (!Init)
    return nullptr;
  Init->addFnAttr(StaticInitAttr);
  markInactive(*Init);
  for (User *U : Init->users())
    if (auto *Call = dyn_cast<CallBase>(U))
      Call->getParent()->getTerminator()->setMetadata(
          StaticInitCallMD, MDNode::get(F.getContext(), {}));
  return Init;
}

} // namespace

SmallVector<Function *, 2> outlineStaticInits(Function &F) {
  SmallVector<CallBase *, 2> Acquires;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->getName() == "__cxa_guard_acquire")
        Acquires.push_back(Call);
  SmallVector<Function *, 2> Inits;
  for (CallBase *Acquire : Acquires)
    if (Function *Init = outlineInitialization(*Acquire))
      Inits.push_back(Init);
  return Inits;
}

bool isStaticInit(const Function &F) {
  return F.hasFnAttribute(StaticInitAttr);
}

bool callsStaticInit(const BasicBlock &BB) {
  const Instruction *T = BB.getTerminator();
  return T && T->getMetadata(StaticInitCallMD);
}

} // namespace capsule
