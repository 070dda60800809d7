//===- ByValShadows.cpp - The shadows of a byval argument's copy ----------===//
#include "Reverse/ByValShadows.h"

#include "Analysis/MemoryKinds.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

static const DataLayout &dataLayoutAt(IRBuilder<> &B) {
  return B.GetInsertBlock()->getModule()->getDataLayout();
}

static Value *at(IRBuilder<> &B, Value *Base, uint64_t Offset) {
  return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
}

void emitCopyPointerShadows(IRBuilder<> &B, Type *Ty, Value *CopyShadow,
                            Value *OriginalShadow) {
  for (const MemoryRun &Run : layoutRuns(Ty, dataLayoutAt(B)))
    if (Run.Kind == ElementKind::Pointer)
      B.CreateMemCpy(at(B, CopyShadow, Run.Offset), MaybeAlign(),
                     at(B, OriginalShadow, Run.Offset), MaybeAlign(),
                     Run.Bytes);
}

void emitReturnCopyAdjoints(IRBuilder<> &B, RuntimeABI &ABI, Type *Ty,
                            Value *OriginalShadow, Value *CopyShadow) {
  for (const MemoryRun &Run : layoutRuns(Ty, dataLayoutAt(B))) {
    if (Run.Kind != ElementKind::F64 && Run.Kind != ElementKind::F32)
      continue;
    B.CreateCall(ABI.copyAdjoint(scalarTypeOf(Run.Kind, B.getContext())),
                 {at(B, OriginalShadow, Run.Offset),
                  at(B, CopyShadow, Run.Offset), B.getInt64(Run.Bytes)});
  }
}

} // namespace capsule
