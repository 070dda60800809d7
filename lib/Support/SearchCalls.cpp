//===- SearchCalls.cpp - bsearch as an index into its array ---------------===//
#include "Support/SearchCalls.h"

#include "Support/CustomRules.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// bsearch(key, base, n, size, cmp) as C declares it on a 64-bit target.
bool isLibraryBsearch(const Function *F) {
  if (!F || F->getName() != "bsearch" || !F->isDeclaration())
    return false;
  LLVMContext &C = F->getContext();
  Type *Ptr = PointerType::getUnqual(C), *Size = Type::getInt64Ty(C);
  return F->getFunctionType() ==
         FunctionType::get(Ptr, {Ptr, Ptr, Size, Size, Ptr}, false);
}

/// The runtime's index of what bsearch finds (runtime/libc/Sort.c): a
/// function of integers as far as derivatives go.
FunctionCallee bsearchIndex(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *Size = Type::getInt64Ty(C);
  FunctionCallee Index = M.getOrInsertFunction(
      "__capsule_libc_bsearch_index",
      FunctionType::get(Size, {Ptr, Ptr, Size, Size, Ptr}, false));
  Function *F = cast<Function>(Index.getCallee());
  markInactive(*F);
  F->setOnlyReadsMemory();
  return Index;
}

void lowerSearchCall(CallInst &Call) {
  IRBuilder<> B(&Call);
  Value *Base = Call.getArgOperand(1), *Size = Call.getArgOperand(3);
  SmallVector<Value *, 5> Args(Call.args());
  Value *Index = B.CreateCall(bsearchIndex(*Call.getModule()), Args);
  Value *Found = B.CreateICmpSGE(Index, B.getInt64(0));
  Value *Element = B.CreateGEP(B.getInt8Ty(), Base, B.CreateMul(Index, Size));
  Value *Result = B.CreateSelect(
      Found, Element,
      ConstantPointerNull::get(cast<PointerType>(Call.getType())), "bsearch");
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

} // namespace

void lowerSearchCalls(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (isLibraryBsearch(Call->getCalledFunction()))
          Calls.push_back(Call);
  for (CallInst *Call : Calls)
    lowerSearchCall(*Call);
}

} // namespace capsule
