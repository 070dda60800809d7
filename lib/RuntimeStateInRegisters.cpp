//===- RuntimeStateInRegisters.cpp - Runtime state in registers -----------===//
#include "RuntimeStateInRegisters.h"

#include "RuntimeABI.h"

#include "llvm/ADT/MapVector.h"
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

/// The tape header field \p Use addresses: a struct GEP of the header whose
/// only users load or store through it; std::nullopt for any other use.
static std::optional<unsigned> tapeFieldOf(const Use &U) {
  auto *GEP = dyn_cast<GetElementPtrInst>(U.getUser());
  if (!GEP || GEP->getNumIndices() != 2 || !GEP->hasAllConstantIndices() ||
      !cast<ConstantInt>(GEP->getOperand(1))->isZero())
    return std::nullopt;
  for (const User *Access : GEP->users()) {
    auto *SI = dyn_cast<StoreInst>(Access);
    if (!isa<LoadInst>(Access) && !(SI && SI->getPointerOperand() == GEP))
      return std::nullopt;
  }
  return cast<ConstantInt>(GEP->getOperand(2))->getZExtValue();
}

/// Whether \p Call may read or write the tape header and come back.
/// Intrinsics never call back into code that pushes; neither do functions
/// that touch no memory or only their arguments'. After a call that does
/// not return, what the tape holds no longer matters.
static bool mayUseTape(const CallBase &Call) {
  return !isa<IntrinsicInst>(Call) && !Call.doesNotAccessMemory() &&
         !Call.onlyAccessesArgMemory() && !Call.doesNotReturn();
}

void keepTapeInRegisters(Function &F, RuntimeABI &ABI) {
  SmallVector<IntrinsicInst *, 16> Addresses = addressesOf(F, "__capsule_tape");
  if (Addresses.empty() || any_of(instructions(F), [](Instruction &I) {
        return isa<InvokeInst, CallBrInst>(I);
      }))
    return;
  // Field index -> its register's slot, whether F ever writes it, and the
  // name of a load of it (tape.top, ...).
  struct FieldUse {
    AllocaInst *Slot = nullptr;
    bool Written = false;
    StringRef Name = "tape.field";
  };
  MapVector<unsigned, FieldUse> Fields;
  for (IntrinsicInst *Address : Addresses)
    for (const Use &U : Address->uses()) {
      std::optional<unsigned> Index = tapeFieldOf(U);
      if (!Index)
        return;
      FieldUse &Field = Fields[*Index];
      for (const User *Access : U.getUser()->users()) {
        Field.Written |= isa<StoreInst>(Access);
        if (isa<LoadInst>(Access) && Access->hasName())
          Field.Name = Access->getName();
      }
    }

  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  for (auto &[Index, Field] : Fields)
    Field.Slot = B.CreateAlloca(B.getPtrTy(), nullptr, Field.Name);
  auto Reload = [&](IRBuilder<> &B) {
    for (auto &[Index, Field] : Fields)
      B.CreateStore(B.CreateLoad(B.getPtrTy(), ABI.tapeField(B, Index)),
                    Field.Slot);
  };
  auto WriteBack = [&](IRBuilder<> &B) {
    for (auto &[Index, Field] : Fields)
      if (Field.Written)
        B.CreateStore(B.CreateLoad(B.getPtrTy(), Field.Slot),
                      ABI.tapeField(B, Index));
  };
  Reload(B);

  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (isa<ReturnInst>(I)) {
      IRBuilder<> Before(&I);
      WriteBack(Before);
    } else if (Call && mayUseTape(*Call)) {
      IRBuilder<> Before(Call);
      WriteBack(Before);
      IRBuilder<> After(Call->getNextNode());
      Reload(After);
    }
  }
  // Redirect the accesses last: the write-backs above address the header
  // through fresh GEPs, which must keep addressing the header.
  for (IntrinsicInst *Address : Addresses) {
    for (Use &U : make_early_inc_range(Address->uses())) {
      auto *GEP = cast<GetElementPtrInst>(U.getUser());
      GEP->replaceAllUsesWith(Fields[*tapeFieldOf(U)].Slot);
      GEP->eraseFromParent();
    }
    Address->eraseFromParent();
  }

  SmallVector<AllocaInst *, 3> Slots;
  for (auto &[Index, Field] : Fields)
    Slots.push_back(Field.Slot);
  DominatorTree DT(F);
  PromoteMemToReg(Slots, DT);
}

} // namespace capsule
