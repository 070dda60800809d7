//===- DeferredAdjoints.cpp - Shared scalars' adjoints summed per thread --===//
//
// In the reverse sweep of a parallel region's code, the adjoint of a load
// from memory the team shares is added atomically (ParallelCalls.cpp). A
// loop whose every iteration reads a shared scalar (a parameter captured by
// reference: `double dt` read by `#pragma omp parallel for`) then makes
// every thread add to the same adjoint in every iteration, and the threads
// spend their time passing its cache line between cores: measured, the
// gradient ran 2 times slower on 2 threads than on 1 (bench/omp-steps.c
// with its parameters shared).
//
// Such a scalar is a pointer parameter the function only loads from. Its
// adjoint is summed in a register of the thread's own and added atomically
// only where something else may read or clear it:
//
//  - before the reverse of a store whose location may overlap it (compared
//    at run time through the shadows: the reverse of a store reads and
//    zeroes the location's adjoint), of a copy or fill, of an atomic update;
//  - before the reverse of a call whose reverse may do so (a differentiated
//    callee, memory moved by the runtime), and of the region's
//    synchronisation (another thread's reverse may read the adjoint after
//    it);
//  - at the end of the reverse sweep.
//
// Adding adjoints commutes, so moving the additions later changes nothing
// else.
//===----------------------------------------------------------------------===//
#include "Reverse/GradientGenerator.h"
#include "Support/GeneratedCode.h"

#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace capsule {

/// The loads' type when \p A is a pointer parameter the function only reads
/// floating-point scalars through; null otherwise.
static Type *readOnlyScalarType(const Argument &A) {
  Type *T = nullptr;
  for (const User *U : A.users()) {
    auto *LI = dyn_cast<LoadInst>(U);
    if (!LI || !LI->isSimple() || !LI->getType()->isFloatingPointTy() ||
        (T && T != LI->getType()))
      return nullptr;
    T = LI->getType();
  }
  return T;
}

void GradientGenerator::findDeferredAdjoints() {
  if (!Sig.Parallel)
    return;
  IRBuilder<> B(RevEntry, RevEntry->begin());
  for (Argument &A : P.args()) {
    Type *T = A.getType()->isPointerTy() && AI.hasShadow(&A)
                  ? readOnlyScalarType(A)
                  : nullptr;
    if (!T)
      continue;
    AllocaInst *Sum = B.CreateAlloca(T, nullptr, A.getName() + ".adj.sum");
    B.CreateStore(ConstantFP::getZero(T), Sum);
    DeferredAdjoints[&A] = Sum;
  }
}

bool GradientGenerator::deferAdjoint(Value *PrimalPtr, Value *Adj) {
  AllocaInst *Sum = DeferredAdjoints.lookup(PrimalPtr);
  if (!Sum || Adj->getType() != Sum->getAllocatedType())
    return false;
  Value *Old = RB.CreateLoad(Sum->getAllocatedType(), Sum);
  RB.CreateStore(RB.CreateFAdd(Old, Adj), Sum);
  return true;
}

/// Adds what \p Sum holds for \p A to A's adjoint (atomically) and clears
/// it, where \p When (if given) holds and the sum is not zero; the reverse
/// sweep goes on after.
void GradientGenerator::flushDeferredAdjoint(Value *A, AllocaInst *Sum,
                                             Value *When) {
  LLVMContext &C = P.getContext();
  Type *T = Sum->getAllocatedType();
  Value *Held = RB.CreateLoad(T, Sum);
  Value *Due = RB.CreateFCmpUNE(Held, ConstantFP::getZero(T));
  if (When)
    Due = RB.CreateAnd(When, Due);
  BasicBlock *Flush = BasicBlock::Create(C, "adj.flush", Target.Rev);
  BasicBlock *Done = BasicBlock::Create(C, "adj.flushed", Target.Rev);
  RB.CreateCondBr(Due, Flush, Done);
  RB.SetInsertPoint(Flush);
  addAtomically(RB, DL, shadow(A), Held);
  RB.CreateStore(ConstantFP::getZero(T), Sum);
  RB.CreateBr(Done);
  RB.SetInsertPoint(Done);
}

/// Whether the reverse of \p Call may read or clear adjoints in memory: a
/// derivative's reverse sweep, memory the runtime moves, the region's
/// synchronisation. Math, allocation and calls without derivatives only
/// add to adjoints, or touch none.
static bool reverseMayClearAdjoints(const CallBase &Call) {
  if (isa<IntrinsicInst>(Call) && !isa<MemIntrinsic>(Call))
    return false;
  switch (classifyCall(Call).Kind) {
  case CalleeKind::Math:
  case CalleeKind::NoDerivative:
  case CalleeKind::PointerCast:
  case CalleeKind::PointerMove:
  case CalleeKind::Alloc:
  case CalleeKind::Calloc:
  case CalleeKind::AlignedAlloc:
    return false;
  default:
    return true;
  }
}

void GradientGenerator::flushDeferredAdjointsBefore(Instruction &I) {
  if (DeferredAdjoints.empty())
    return;
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *Ptr = SI->getPointerOperand();
    if (!AI.hasShadow(Ptr))
      return;
    // The stored location's adjoints against each scalar's, by address.
    Value *From = RB.CreatePtrToInt(shadow(Ptr), RB.getInt64Ty());
    Value *To = RB.CreateAdd(From, RB.getInt64(DL.getTypeStoreSize(
                                       SI->getValueOperand()->getType())));
    for (auto &[A, Sum] : DeferredAdjoints) {
      Value *Begin = RB.CreatePtrToInt(shadow(A), RB.getInt64Ty());
      Value *End = RB.CreateAdd(
          Begin, RB.getInt64(DL.getTypeStoreSize(Sum->getAllocatedType())));
      Value *Overlap = RB.CreateAnd(RB.CreateICmpULT(Begin, To),
                                    RB.CreateICmpULT(From, End));
      flushDeferredAdjoint(A, Sum, Overlap);
    }
    return;
  }
  auto *Call = dyn_cast<CallBase>(&I);
  if ((Call && !reverseMayClearAdjoints(*Call)) ||
      (!Call && !I.mayWriteToMemory()))
    return;
  flushDeferredAdjoints();
}

void GradientGenerator::flushDeferredAdjoints() {
  for (auto &[A, Sum] : DeferredAdjoints)
    flushDeferredAdjoint(A, Sum, nullptr);
}

} // namespace capsule
