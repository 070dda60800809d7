//===- StackArrays.cpp - Stack arrays of variable size on the heap --------===//
#include "Interrupt/StackArrays.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// malloc's alignment on x86-64 Linux: larger ones take aligned_alloc.
constexpr uint64_t MallocAlign = 16;

/// The bytes \p AI allocates, at \p B.
Value *allocatedBytes(IRBuilder<> &B, AllocaInst &AI) {
  const DataLayout &DL = AI.getDataLayout();
  Value *Count = B.CreateZExtOrTrunc(AI.getArraySize(), B.getInt64Ty());
  return B.CreateMul(Count,
                     B.getInt64(DL.getTypeAllocSize(AI.getAllocatedType())));
}

/// A heap block for \p AI, in its place, kept in \p Slot.
void allocateOnHeap(AllocaInst &AI, AllocaInst &Slot) {
  Module &M = *AI.getModule();
  IRBuilder<> B(&AI);
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
  Value *Bytes = allocatedBytes(B, AI);
  uint64_t Align = AI.getAlign().value();
  CallInst *Block;
  if (Align <= MallocAlign) {
    Block = B.CreateCall(M.getOrInsertFunction("malloc", Ptr, I64), {Bytes});
  } else {
    // aligned_alloc wants a size that is a multiple of the alignment.
    Value *Rounded = B.CreateAnd(B.CreateAdd(Bytes, B.getInt64(Align - 1)),
                                 B.getInt64(~(Align - 1)));
    Block = B.CreateCall(M.getOrInsertFunction("aligned_alloc", Ptr, I64, I64),
                         {B.getInt64(Align), Rounded});
  }
  B.CreateStore(Block, &Slot);
  Block->takeName(&AI);
  AI.replaceAllUsesWith(Block);
  AI.eraseFromParent();
}

/// Frees the blocks \p Slots hold (null when an array has none), before
/// \p Before.
void freeBlocks(ArrayRef<AllocaInst *> Slots, Instruction *Before) {
  if (Slots.empty())
    return;
  Module &M = *Before->getModule();
  IRBuilder<> B(Before);
  FunctionCallee Free =
      M.getOrInsertFunction("free", B.getVoidTy(), B.getPtrTy());
  for (AllocaInst *Slot : Slots) {
    B.CreateCall(Free, {B.CreateLoad(B.getPtrTy(), Slot)});
    B.CreateStore(Constant::getNullValue(B.getPtrTy()), Slot);
  }
}

} // namespace

bool moveStackArraysToHeap(Function &F) {
  SmallVector<AllocaInst *, 4> Arrays;
  SmallVector<IntrinsicInst *, 4> Saves, Restores;
  for (Instruction &I : instructions(F)) {
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && !AI->isStaticAlloca())
      Arrays.push_back(AI);
    if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      if (II->getIntrinsicID() == Intrinsic::stacksave)
        Saves.push_back(II);
      if (II->getIntrinsicID() == Intrinsic::stackrestore)
        Restores.push_back(II);
    }
  }
  if (Arrays.empty() && Saves.empty())
    return false;
  // Each array's block in a slot of the frame, empty at the start: a return
  // may come before an array's block.
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  SmallVector<AllocaInst *, 4> Slots;
  for (AllocaInst *AI : Arrays) {
    Slots.push_back(
        Entry.CreateAlloca(Entry.getPtrTy(), nullptr, AI->getName() + ".heap"));
    Entry.CreateStore(Constant::getNullValue(Entry.getPtrTy()), Slots.back());
  }
  // Where the stack would have given each array back, from the dominance
  // of the original code.
  DominatorTree DT(F);
  for (IntrinsicInst *R : Restores) {
    SmallVector<AllocaInst *, 2> Freed;
    if (auto *Save = dyn_cast<Instruction>(R->getArgOperand(0)))
      for (auto [AI, Slot] : zip(Arrays, Slots))
        if (DT.dominates(Save, AI))
          Freed.push_back(Slot);
    freeBlocks(Freed, R);
  }
  for (BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator()))
      freeBlocks(Slots, BB.getTerminator());
  for (auto [AI, Slot] : zip(Arrays, Slots))
    allocateOnHeap(*AI, *Slot);
  // With no array left on the stack, the saved stack pointers restore
  // nothing.
  for (IntrinsicInst *R : Restores)
    R->eraseFromParent();
  for (IntrinsicInst *S : Saves) {
    S->replaceAllUsesWith(PoisonValue::get(S->getType()));
    S->eraseFromParent();
  }
  return true;
}

} // namespace capsule
