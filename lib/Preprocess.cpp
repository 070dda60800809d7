//===- Preprocess.cpp - Canonical form for differentiation ----------------===//
#include "Preprocess.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace capsule {

/// Exceptions thrown through differentiated code are not supported (the
/// tape would be left half-written), so an invoke becomes a call that
/// continues at the normal destination; landing pads become unreachable.
static void lowerInvokes(Function &F) {
  SmallVector<InvokeInst *, 8> Invokes;
  for (BasicBlock &BB : F)
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator()))
      Invokes.push_back(II);
  for (InvokeInst *II : Invokes)
    changeToCall(II);
}

/// Gives the function a single return block, so that the reverse sweep has
/// a single entry.
static void unifyReturns(Function &F) {
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(RI);
  if (Returns.size() < 2)
    return;
  LLVMContext &C = F.getContext();
  BasicBlock *Exit = BasicBlock::Create(C, "capsule.return", &F);
  IRBuilder<> B(Exit);
  Type *RetTy = F.getReturnType();
  PHINode *Result =
      RetTy->isVoidTy() ? nullptr : B.CreatePHI(RetTy, Returns.size(), "ret");
  ReturnInst *NewRet = Result ? B.CreateRet(Result) : B.CreateRetVoid();
  NewRet->setDebugLoc(Returns.front()->getDebugLoc());
  for (ReturnInst *RI : Returns) {
    if (Result)
      Result->addIncoming(RI->getReturnValue(), RI->getParent());
    BranchInst::Create(Exit, RI->getParent());
    RI->eraseFromParent();
  }
}

static void promoteStackSlots(Function &F) {
  DominatorTree DT(F);
  SmallVector<AllocaInst *, 16> Promotable;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Promotable.push_back(AI);
  if (!Promotable.empty())
    PromoteMemToReg(Promotable, DT);
}

Function *prepareForDifferentiation(Function &F) {
  ValueToValueMapTy VMap;
  Function *P = CloneFunction(&F, VMap);
  P->setName(F.getName() + ".capsule.prep");
  P->setLinkage(GlobalValue::InternalLinkage);
  P->removeFnAttr(Attribute::OptimizeNone);
  P->removeFnAttr(Attribute::NoInline);
  lowerInvokes(*P);
  removeUnreachableBlocks(*P);
  unifyReturns(*P);
  promoteStackSlots(*P);
  return P;
}

} // namespace capsule
