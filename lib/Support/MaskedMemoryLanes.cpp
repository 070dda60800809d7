//===- MaskedMemoryLanes.cpp - Masked loads and stores by lane ------------===//
#include "Support/MaskedMemoryLanes.h"

#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace capsule {

namespace {

/// Lane \p K of the vector of pointers \p Ptrs: a vector GEP (what the
/// vectorizer makes of `&x[idx[i]]`) becomes a GEP of that lane's base and
/// indices, a splat its pointer.
Value *lanePointer(IRBuilder<> &B, Value *Ptrs, unsigned K) {
  if (Value *Splat = getSplatValue(Ptrs))
    return Splat;
  auto *GEP = dyn_cast<GetElementPtrInst>(Ptrs);
  if (!GEP)
    return B.CreateExtractElement(Ptrs, K);
  auto Lane = [&](Value *V) -> Value * {
    if (!V->getType()->isVectorTy())
      return V;
    return V->getType()->getScalarType()->isPointerTy()
               ? lanePointer(B, V, K)
               : B.CreateExtractElement(V, K);
  };
  SmallVector<Value *, 4> Indices;
  for (Use &Index : GEP->indices())
    Indices.push_back(Lane(Index));
  Value *Base = Lane(GEP->getPointerOperand());
  return GEP->isInBounds()
             ? B.CreateInBoundsGEP(GEP->getSourceElementType(), Base, Indices)
             : B.CreateGEP(GEP->getSourceElementType(), Base, Indices);
}

/// One masked access, taken apart.
struct MaskedAccess {
  IntrinsicInst *Call;
  Value *Stored = nullptr; // stores and scatters
  Value *Address;          // a pointer, or a vector of them
  bool PerLaneAddresses;   // gathers and scatters
  Align Alignment;         // of the whole access, or of each lane's
  Value *Mask;
  Value *PassThrough = nullptr; // loads and gathers
};

std::optional<MaskedAccess> maskedAccess(Instruction &I) {
  auto *Call = dyn_cast<IntrinsicInst>(&I);
  if (!Call)
    return std::nullopt;
  // A gather's or scatter's alignment may be 0: then nothing is promised.
  auto AlignOf = [&](unsigned K) {
    return MaybeAlign(cast<ConstantInt>(Call->getArgOperand(K))->getZExtValue())
        .valueOrOne();
  };
  switch (Call->getIntrinsicID()) {
  case Intrinsic::masked_load:
  case Intrinsic::masked_gather:
    return MaskedAccess{Call,
                        nullptr,
                        Call->getArgOperand(0),
                        Call->getIntrinsicID() == Intrinsic::masked_gather,
                        AlignOf(1),
                        Call->getArgOperand(2),
                        Call->getArgOperand(3)};
  case Intrinsic::masked_store:
  case Intrinsic::masked_scatter:
    return MaskedAccess{Call,
                        Call->getArgOperand(0),
                        Call->getArgOperand(1),
                        Call->getIntrinsicID() == Intrinsic::masked_scatter,
                        AlignOf(2),
                        Call->getArgOperand(3)};
  default:
    return std::nullopt;
  }
}

/// Lane \p K of \p A: its address and alignment, at \p B.
std::pair<Value *, Align> laneAddress(IRBuilder<> &B, const MaskedAccess &A,
                                      FixedVectorType *VTy, unsigned K) {
  if (A.PerLaneAddresses)
    return {lanePointer(B, A.Address, K), A.Alignment};
  const DataLayout &DL = A.Call->getDataLayout();
  uint64_t Offset = K * DL.getTypeAllocSize(VTy->getElementType());
  return {B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), A.Address, Offset),
          commonAlignment(A.Alignment, Offset)};
}

/// Lane \p K of \p A, run under its mask's lane: its loaded value (or the
/// pass-through's lane where the mask is clear), nothing for a store.
Value *accessLane(const MaskedAccess &A, FixedVectorType *VTy, unsigned K) {
  Instruction *At = A.Call;
  IRBuilder<> B(At);
  Value *Enabled = B.CreateExtractElement(A.Mask, K);
  auto *Known = dyn_cast<ConstantInt>(Enabled);
  Value *PassThrough =
      A.PassThrough ? B.CreateExtractElement(A.PassThrough, K) : nullptr;
  if (Known && Known->isZero())
    return PassThrough;
  BasicBlock *Before = At->getParent();
  if (!Known)
    B.SetInsertPoint(SplitBlockAndInsertIfThen(Enabled, At, false));
  BasicBlock *Run = B.GetInsertBlock();
  auto [Address, Alignment] = laneAddress(B, A, VTy, K);
  Value *Loaded = nullptr;
  if (A.Stored) {
    StoreInst *Store = B.CreateAlignedStore(B.CreateExtractElement(A.Stored, K),
                                            Address, Alignment);
    Store->setDebugLoc(At->getDebugLoc());
  } else {
    LoadInst *Load =
        B.CreateAlignedLoad(VTy->getElementType(), Address, Alignment);
    Load->setDebugLoc(At->getDebugLoc());
    Loaded = Load;
  }
  if (Known || !Loaded)
    return Loaded;
  B.SetInsertPoint(At);
  PHINode *Lane = B.CreatePHI(Loaded->getType(), 2);
  Lane->addIncoming(Loaded, Run);
  Lane->addIncoming(PassThrough, Before);
  return Lane;
}

void accessByLane(const MaskedAccess &A) {
  auto *VTy = cast<FixedVectorType>((A.Stored ? A.Stored : A.Call)->getType());
  Value *Result = A.Stored ? nullptr : PoisonValue::get(VTy);
  for (unsigned K = 0; K < VTy->getNumElements(); ++K) {
    Value *Lane = accessLane(A, VTy, K);
    if (Result)
      Result = IRBuilder<>(A.Call).CreateInsertElement(Result, Lane, K);
  }
  if (Result)
    A.Call->replaceAllUsesWith(Result);
  A.Call->eraseFromParent();
}

} // namespace

void accessMaskedMemoryByLane(Function &F) {
  SmallVector<MaskedAccess, 4> Accesses;
  for (Instruction &I : instructions(F))
    if (std::optional<MaskedAccess> A = maskedAccess(I);
        A && isa<FixedVectorType>((A->Stored ? A->Stored : A->Call)->getType()))
      Accesses.push_back(*A);
  for (const MaskedAccess &A : Accesses)
    accessByLane(A);
}

} // namespace capsule
