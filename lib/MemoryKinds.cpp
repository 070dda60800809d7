//===- MemoryKinds.cpp - What kind of data a copy moves -------------------===//
#include "MemoryKinds.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace capsule {

namespace {

/// The kinds seen so far, as a bit set.
struct Evidence {
  bool F64 = false, F32 = false, Pointer = false, Integer = false;

  void addType(Type *T) {
    if (T->isDoubleTy())
      F64 = true;
    else if (T->isFloatTy())
      F32 = true;
    else if (T->isPointerTy())
      Pointer = true;
    // Byte-typed accesses say nothing: optimized code addresses any memory
    // with i8 offsets.
    else if (T->isIntegerTy() && !T->isIntegerTy(8))
      Integer = true;
    else if (auto *S = dyn_cast<StructType>(T))
      for (Type *E : S->elements())
        addType(E);
    else if (auto *A = dyn_cast<ArrayType>(T))
      addType(A->getElementType());
    else if (auto *V = dyn_cast<VectorType>(T))
      addType(V->getElementType());
  }
  bool any() const { return F64 || F32 || Pointer || Integer; }

  ElementKind kind() const {
    bool Floats = F64 || F32;
    if (Floats && (Pointer || Integer || (F64 && F32)))
      return ElementKind::Unknown;
    if (F64)
      return ElementKind::F64;
    if (F32)
      return ElementKind::F32;
    if (Pointer)
      return ElementKind::Pointer;
    return Integer ? ElementKind::Integer : ElementKind::Unknown;
  }
};

/// Types of the accesses made directly through \p Ptr.
void addUses(Evidence &E, const Value *Ptr) {
  for (const User *U : Ptr->users()) {
    if (auto *LI = dyn_cast<LoadInst>(U))
      E.addType(LI->getType());
    else if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getPointerOperand() == Ptr)
        E.addType(SI->getValueOperand()->getType());
    } else if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
      if (GEP->getPointerOperand() == Ptr)
        E.addType(GEP->getSourceElementType());
    }
  }
}

void addPointer(Evidence &E, const Value *Ptr) {
  if (auto *GEP = dyn_cast<GEPOperator>(Ptr))
    E.addType(GEP->getResultElementType());
  addUses(E, Ptr);
  if (E.any())
    return;
  const Value *Base = getUnderlyingObject(Ptr);
  if (auto *AI = dyn_cast<AllocaInst>(Base))
    E.addType(AI->getAllocatedType());
  else if (auto *G = dyn_cast<GlobalVariable>(Base))
    E.addType(G->getValueType());
  if (!E.any())
    addUses(E, Base);
}

} // namespace

ElementKind copiedElementKind(const CallBase &Call) {
  Evidence E;
  if (isa<AnyMemTransferInst>(Call)) {
    addPointer(E, Call.getArgOperand(0));
    addPointer(E, Call.getArgOperand(1));
  } else {
    addPointer(E, &Call);
    addPointer(E, Call.getArgOperand(0));
  }
  return E.kind();
}

} // namespace capsule
