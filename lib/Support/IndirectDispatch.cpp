//===- IndirectDispatch.cpp - Indirect calls as a chain of direct calls ---===//
#include "Support/IndirectDispatch.h"

#include "Analysis/CallClassifier.h"
#include "Support/Diagnostics.h"
#include "Support/RuntimeABI.h"

#include "llvm/IR/DebugInfoMetadata.h"

using namespace llvm;

namespace capsule {

Value *
emitIndirectDispatch(IRBuilder<> &B, RuntimeABI &ABI, CallBase &Call,
                     Value *Callee, Type *ResultTy, const Function &Origin,
                     function_ref<Value *(IRBuilder<> &, Function *)> EmitCall,
                     bool IncludeDeclarations) {
  LLVMContext &C = B.getContext();
  BasicBlock *Here = B.GetInsertBlock();
  Function *Fn = Here->getParent();
  BasicBlock *Join;
  if (B.GetInsertPoint() == Here->end()) {
    Join = BasicBlock::Create(C, "dispatch.join", Fn);
  } else {
    Join = Here->splitBasicBlock(B.GetInsertPoint(), "dispatch.join");
    Here->getTerminator()->eraseFromParent();
    B.SetInsertPoint(Here);
  }
  SmallVector<std::pair<Value *, BasicBlock *>, 4> Results;
  for (Function *Target : indirectCallTargets(
           *Fn->getParent(), Call.getFunctionType(), IncludeDeclarations)) {
    BasicBlock *Taken = BasicBlock::Create(C, "dispatch.call", Fn, Join);
    BasicBlock *Next = BasicBlock::Create(C, "dispatch.next", Fn, Join);
    B.CreateCondBr(B.CreateICmpEQ(Callee, Target), Taken, Next);
    B.SetInsertPoint(Taken);
    Value *R = EmitCall(B, Target);
    Results.push_back({R, B.GetInsertBlock()});
    B.CreateBr(Join);
    B.SetInsertPoint(Next);
  }
  std::string Site = "an indirect call in '" + displayName(Origin) + "'";
  if (const DebugLoc &DL = Call.getDebugLoc())
    Site = (DL->getFilename() + ":" + Twine(DL.getLine())).str();
  B.CreateCall(ABI.unknownCallTarget(),
               {Callee, B.CreateGlobalString(Site, "capsule.site")});
  B.CreateUnreachable();

  B.SetInsertPoint(Join, Join->begin());
  if (ResultTy->isVoidTy())
    return nullptr;
  PHINode *Phi = B.CreatePHI(ResultTy, Results.size());
  for (auto &[V, BB] : Results)
    Phi->addIncoming(V, BB);
  return Phi;
}

} // namespace capsule
