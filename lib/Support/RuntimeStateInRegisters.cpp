//===- RuntimeStateInRegisters.cpp - Runtime state in registers -----------===//
#include "Support/RuntimeStateInRegisters.h"

#include "Analysis/CallClassifier.h"
#include "Support/RuntimeABI.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <functional>

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

/// A thread-local variable that a function keeps in a stack slot of its own
/// (promoted to a register at the end), and whether the function writes it.
struct RegisterCopy {
  AllocaInst *Slot;
  std::function<Value *(IRBuilder<> &)> Address;
  bool Written;
};

/// Fills the slots of \p Copies from thread-local memory at \p F's entry and
/// after every call \p Syncs accepts, writes the written ones back before
/// such calls and before F returns, and promotes the slots to registers.
static void keepInRegisters(Function &F, ArrayRef<RegisterCopy> Copies,
                            function_ref<bool(const CallBase &)> Syncs) {
  auto Reload = [&](IRBuilder<> &B) {
    for (const RegisterCopy &C : Copies)
      B.CreateStore(B.CreateLoad(C.Slot->getAllocatedType(), C.Address(B)),
                    C.Slot);
  };
  auto WriteBack = [&](IRBuilder<> &B) {
    for (const RegisterCopy &C : Copies)
      if (C.Written)
        B.CreateStore(B.CreateLoad(C.Slot->getAllocatedType(), C.Slot),
                      C.Address(B));
  };
  // After the slots (and any other static stack slot) at the entry.
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> AtEntry(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
  Reload(AtEntry);
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (isa<ReturnInst>(I)) {
      IRBuilder<> Before(&I);
      WriteBack(Before);
    } else if (Call && Syncs(*Call)) {
      IRBuilder<> Before(Call);
      WriteBack(Before);
      IRBuilder<> After(Call->getNextNode());
      Reload(After);
    }
  }
  SmallVector<AllocaInst *, 3> Slots;
  for (const RegisterCopy &C : Copies)
    Slots.push_back(C.Slot);
  DominatorTree DT(F);
  PromoteMemToReg(Slots, DT);
}

void keepBudgetInRegister(Function &Step,
                          const SmallPtrSetImpl<Function *> &Charging,
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
  RegisterCopy Copy{Budget,
                    [&](IRBuilder<> &B) { return ABI.budgetAddress(B); }, true};
  keepInRegisters(Step, Copy, [&](const CallBase &Call) {
    Function *Callee = Call.getCalledFunction();
    return isa<CallInst>(Call) && Callee && Charging.count(Callee);
  });
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

// Intrinsics never call back into code that pushes; neither do functions
// that touch no memory or only their arguments', nor libm's (errno is all
// they write besides their outputs). After a call that does not return,
// what the tape holds no longer matters.
bool mayUseTape(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (Callee && Callee->isDeclaration() && mathFunctionNamed(Callee->getName()))
    return false;
  return !isa<IntrinsicInst>(Call) && !Call.doesNotAccessMemory() &&
         !Call.onlyAccessesArgMemory() && !Call.doesNotReturn();
}

void keepTapeInRegisters(Function &F, RuntimeABI &ABI) {
  // The tape F pushes on: under reverse over reverse, F also runs the inner
  // gradient's pushes on the other tape, which stay as they are.
  SmallVector<IntrinsicInst *, 16> Addresses =
      addressesOf(F, ABI.tapeHeader()->getName());
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
  SmallVector<RegisterCopy, 3> Copies;
  for (auto &[Index, Field] : Fields) {
    Field.Slot = B.CreateAlloca(B.getPtrTy(), nullptr, Field.Name);
    unsigned I = Index;
    Copies.push_back({Field.Slot,
                      [&ABI, I](IRBuilder<> &B) { return ABI.tapeField(B, I); },
                      Field.Written});
  }
  for (IntrinsicInst *Address : Addresses) {
    for (Use &U : make_early_inc_range(Address->uses())) {
      auto *GEP = cast<GetElementPtrInst>(U.getUser());
      GEP->replaceAllUsesWith(Fields[*tapeFieldOf(U)].Slot);
      GEP->eraseFromParent();
    }
    Address->eraseFromParent();
  }
  keepInRegisters(F, Copies, mayUseTape);
}

} // namespace capsule
