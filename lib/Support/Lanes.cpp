//===- Lanes.cpp - Several tangents per value (vector mode) ---------------===//
#include "Support/Lanes.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

using namespace llvm;

namespace capsule {

Type *laneType(Type *T, unsigned Width) {
  if (Width == 1 || T->isVoidTy())
    return T;
  if (isa<VectorType>(T))
    return nullptr;
  if (auto *S = dyn_cast<StructType>(T)) {
    SmallVector<Type *, 4> Fields;
    for (Type *E : S->elements()) {
      Type *L = laneType(E, Width);
      if (!L)
        return nullptr;
      Fields.push_back(L);
    }
    return StructType::get(T->getContext(), Fields, S->isPacked());
  }
  if (auto *A = dyn_cast<ArrayType>(T)) {
    Type *L = laneType(A->getElementType(), Width);
    return L ? ArrayType::get(L, A->getNumElements()) : nullptr;
  }
  return FixedVectorType::get(T, Width);
}

Value *splatLanes(IRBuilder<> &B, Value *V, unsigned Width) {
  return Width == 1 ? V : B.CreateVectorSplat(Width, V);
}

Value *laneOf(IRBuilder<> &B, Value *Lanes, unsigned K, unsigned Width) {
  return Width == 1 ? Lanes : B.CreateExtractElement(Lanes, K);
}

Value *makeLanes(IRBuilder<> &B, unsigned Width,
                 function_ref<Value *(unsigned)> Each) {
  Value *First = Each(0);
  if (Width == 1)
    return First;
  Value *Lanes = B.CreateInsertElement(
      PoisonValue::get(FixedVectorType::get(First->getType(), Width)), First,
      uint64_t(0));
  for (unsigned K = 1; K < Width; ++K)
    Lanes = B.CreateInsertElement(Lanes, Each(K), K);
  return Lanes;
}

void forEachLane(IRBuilder<> &B, Value *Lanes, unsigned Width,
                 function_ref<void(Value *)> Each) {
  for (unsigned K = 0; K < Width; ++K)
    Each(laneOf(B, Lanes, K, Width));
}

/// The pointers to field \p Index of the aggregates of type \p Ty that
/// \p Pointers point to, and their alignment.
static std::pair<Value *, Align> fieldPointers(IRBuilder<> &B, Type *Ty,
                                               Value *Pointers, unsigned Index,
                                               Align Alignment) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  uint64_t Offset =
      isa<StructType>(Ty)
          ? DL.getStructLayout(cast<StructType>(Ty))->getElementOffset(Index)
          : Index * DL.getTypeAllocSize(Ty->getArrayElementType());
  return {B.CreateConstInBoundsGEP2_32(Ty, Pointers, 0, Index),
          commonAlignment(Alignment, Offset)};
}

/// The alignment a lane's shadow has for an access of type \p Ty that the
/// primal makes with \p Alignment: no more than the type's own, since the
/// user's shadows of the lanes lie any whole number of elements apart.
static Align laneAlign(IRBuilder<> &B, Type *Ty, Align Alignment) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  return std::min(Alignment, DL.getABITypeAlign(Ty));
}

static unsigned numFields(Type *Ty) {
  return isa<StructType>(Ty) ? Ty->getStructNumElements()
                             : Ty->getArrayNumElements();
}

static Type *fieldType(Type *Ty, unsigned I) {
  return isa<StructType>(Ty) ? Ty->getStructElementType(I)
                             : Ty->getArrayElementType();
}

Value *loadLanes(IRBuilder<> &B, Type *Ty, Value *Pointers, Align Alignment,
                 unsigned Width, LaneAccessTag Tag) {
  if (Width == 1) {
    LoadInst *L = B.CreateAlignedLoad(Ty, Pointers, Alignment);
    Tag(*L, 0);
    return L;
  }
  if (!Ty->isAggregateType())
    return makeLanes(B, Width, [&](unsigned K) -> Value * {
      LoadInst *L = B.CreateAlignedLoad(Ty, laneOf(B, Pointers, K, Width),
                                        laneAlign(B, Ty, Alignment));
      Tag(*L, K);
      return L;
    });
  Value *V = PoisonValue::get(laneType(Ty, Width));
  for (unsigned I = 0; I < numFields(Ty); ++I) {
    auto [Field, FieldAlign] = fieldPointers(B, Ty, Pointers, I, Alignment);
    V = B.CreateInsertValue(
        V, loadLanes(B, fieldType(Ty, I), Field, FieldAlign, Width, Tag), I);
  }
  return V;
}

void storeLanes(IRBuilder<> &B, Type *Ty, Value *V, Value *Pointers,
                Align Alignment, unsigned Width, LaneAccessTag Tag) {
  if (Width == 1) {
    Tag(*B.CreateAlignedStore(V, Pointers, Alignment), 0);
    return;
  }
  if (!Ty->isAggregateType()) {
    for (unsigned K = 0; K < Width; ++K)
      Tag(*B.CreateAlignedStore(laneOf(B, V, K, Width),
                                laneOf(B, Pointers, K, Width),
                                laneAlign(B, Ty, Alignment)),
          K);
    return;
  }
  for (unsigned I = 0; I < numFields(Ty); ++I) {
    auto [Field, FieldAlign] = fieldPointers(B, Ty, Pointers, I, Alignment);
    storeLanes(B, fieldType(Ty, I), B.CreateExtractValue(V, I), Field,
               FieldAlign, Width, Tag);
  }
}

/// Lane \p K of the twin \p V of a value of type \p Ty, as a value of \p Ty.
static Value *laneValue(IRBuilder<> &B, Type *Ty, Value *V, unsigned K,
                        unsigned Width) {
  if (!Ty->isAggregateType())
    return laneOf(B, V, K, Width);
  Value *Lane = PoisonValue::get(Ty);
  for (unsigned I = 0; I < numFields(Ty); ++I)
    Lane = B.CreateInsertValue(
        Lane,
        laneValue(B, fieldType(Ty, I), B.CreateExtractValue(V, I), K, Width),
        I);
  return Lane;
}

Value *lanesAsArray(IRBuilder<> &B, Type *Ty, Value *V, unsigned Width) {
  Value *Array = PoisonValue::get(ArrayType::get(Ty, Width));
  for (unsigned K = 0; K < Width; ++K)
    Array = B.CreateInsertValue(Array, laneValue(B, Ty, V, K, Width), K);
  return Array;
}

void scalarizeLanes(Function &F, FunctionAnalysisManager &FAM) {
  ScalarizerPassOptions Options;
  Options.ScalarizeLoadStore = true;
  FAM.invalidate(F, ScalarizerPass(Options).run(F, FAM));
}

} // namespace capsule
