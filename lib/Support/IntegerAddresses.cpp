//===- IntegerAddresses.cpp - Addresses computed on integers --------------===//
#include "Support/IntegerAddresses.h"

#include "Analysis/MemoryKinds.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace capsule {

namespace {

/// Whether integer \p V is a constant, or a parameter every caller passes a
/// constant for: Eigen's handmade_aligned_malloc takes its alignment, which
/// stays a parameter where the function is not inlined (-O0).
bool isConstantInteger(const Value *V) {
  if (isa<ConstantInt>(V))
    return true;
  auto *Param = dyn_cast<Argument>(V);
  if (!Param)
    return false;
  SmallVector<const Value *, 4> Passed = argumentsPassedTo(*Param);
  return !Passed.empty() &&
         all_of(Passed, [](const Value *A) { return isa<ConstantInt>(A); });
}

/// The one pointer \p Address is computed from by additions, subtractions
/// and bitwise operations with constants (isConstantInteger); null when it
/// is none or several, or when any other integer takes part. An integer
/// that is not a constant may hold another pointer's address (an XOR-linked
/// list's `prev ^ link`): the result would then not be in p's block, nor
/// its shadow in p's shadow.
Value *pointerMovedByConstants(Value *Address) {
  constexpr unsigned MaxSteps = 32;
  SmallVector<Value *, 8> Work{Address};
  SmallPtrSet<Value *, 8> Seen;
  Value *Base = nullptr;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second || isConstantInteger(V))
      continue;
    if (Seen.size() > MaxSteps)
      return nullptr;
    if (auto *Cast = dyn_cast<PtrToIntInst>(V)) {
      if (Base && Base != Cast->getPointerOperand())
        return nullptr;
      Base = Cast->getPointerOperand();
      continue;
    }
    auto *Op = dyn_cast<BinaryOperator>(V);
    if (!Op ||
        !is_contained({Instruction::Add, Instruction::Sub, Instruction::And,
                       Instruction::Or, Instruction::Xor},
                      Op->getOpcode()))
      return nullptr;
    // K - p is not p moved: only constants are subtracted.
    if (Op->getOpcode() == Instruction::Sub &&
        !isConstantInteger(Op->getOperand(1)))
      return nullptr;
    Work.append({Op->getOperand(0), Op->getOperand(1)});
  }
  return Base;
}

} // namespace

void rebaseIntegerAddresses(Function &F) {
  SmallVector<IntToPtrInst *, 4> Casts;
  for (Instruction &I : instructions(F))
    if (auto *Cast = dyn_cast<IntToPtrInst>(&I))
      Casts.push_back(Cast);
  for (IntToPtrInst *Cast : Casts) {
    Value *Address = Cast->getOperand(0);
    Value *Base = pointerMovedByConstants(Address);
    if (!Base || Base->getType() != Cast->getType())
      continue;
    IRBuilder<> B(Cast);
    Value *Offset = B.CreateSub(
        Address, B.CreatePtrToInt(Base, Address->getType()), "capsule.offset");
    // Not inbounds: nothing says the address stays in p's object.
    Value *Rebased = B.CreateGEP(B.getInt8Ty(), Base, Offset, Cast->getName());
    Cast->replaceAllUsesWith(Rebased);
    Cast->eraseFromParent();
  }
}

} // namespace capsule
