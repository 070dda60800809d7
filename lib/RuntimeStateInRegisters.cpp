//===- RuntimeStateInRegisters.cpp - The step budget in a register --------===//
#include "RuntimeStateInRegisters.h"

#include "RuntimeABI.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace capsule {

/// The calls `llvm.threadlocal.address(@Name)` in \p F.
static SmallVector<IntrinsicInst *, 16> addressesOf(Function &F,
                                                    StringRef Name) {
  SmallVector<IntrinsicInst *, 16> Found;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::threadlocal_address &&
          II->getArgOperand(0)->getName() == Name)
        Found.push_back(II);
  return Found;
}

void keepBudgetInRegister(Function &Step,
                          const SmallPtrSetImpl<Function *> &StepFns,
                          RuntimeABI &ABI) {
  SmallVector<IntrinsicInst *, 16> Addresses =
      addressesOf(Step, "__capsule_budget");
  BasicBlock &Entry = Step.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *Budget = B.CreateAlloca(B.getInt64Ty(), nullptr, "budget");
  for (IntrinsicInst *Address : Addresses) {
    Address->replaceAllUsesWith(Budget);
    Address->eraseFromParent();
  }
  auto Copy = [&](IRBuilder<> &B, bool ToRegister) {
    Value *Global = ABI.budgetAddress(B);
    Value *From = ToRegister ? Global : Budget;
    Value *To = ToRegister ? Budget : Global;
    B.CreateStore(B.CreateLoad(B.getInt64Ty(), From), To);
  };
  Copy(B, /*ToRegister=*/true);
  for (Instruction &I : make_early_inc_range(instructions(Step))) {
    if (isa<ReturnInst>(I)) {
      IRBuilder<> Before(&I);
      Copy(Before, /*ToRegister=*/false);
      continue;
    }
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || !StepFns.count(Callee))
      continue;
    IRBuilder<> Before(Call);
    Copy(Before, /*ToRegister=*/false);
    IRBuilder<> After(Call->getNextNode());
    Copy(After, /*ToRegister=*/true);
  }
  DominatorTree DT(Step);
  PromoteMemToReg({Budget}, DT);
}

} // namespace capsule
