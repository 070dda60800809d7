//===- CheckpointedShadows.cpp - Shadows in checkpointed code -------------===//
//
// A checkpointed gradient differentiates step functions one stage at a time
// (docs/checkpointing.md). Their activation records live on the runtime's
// frame stack and their heap blocks in its arena: memory that is reused for
// values of other types, and that capsules roll back. Two rules follow.
//
//  - Runtime memory has its shadows at fixed offsets from it (one region
//    span above: adjoints; two spans above: shadow pointers). The shadow of
//    an arena block is derived from its address, so the re-execution of an
//    allocation from a capsule finds the adjoints later stages left there.
//    Shadow pointers stored beside pointers in runtime memory live apart
//    from adjoints (so a reused frame slot never reads pointer bits as an
//    adjoint) and are journaled like primal memory (so restoring a capsule
//    restores them with the pointers they shadow). Shadow pointers stored in
//    other memory (user shadows, shadow globals) are journaled too.
//  - A pointer loaded back with a null shadow (it was constant data, or
//    made from an integer, when it was stored) gets a shadow in the sink, a
//    scratch space indexed by address: every pointer crossing a yield goes
//    through a frame, so the static knowledge that it has no shadow is lost
//    there, while its reverse sweep still accumulates adjoints through it.
//===----------------------------------------------------------------------===//
#include "Interrupt/JournalBarriers.h"
#include "Reverse/GradientGenerator.h"
#include "Support/RuntimeABI.h"

using namespace llvm;

namespace capsule {

/// The slot holding the shadow of the pointer stored at \p Ptr, whose
/// shadow memory is at \p Shadow.
Value *GradientGenerator::pointerShadowSlot(IRBuilder<> &B, Value *Ptr,
                                            Value *Shadow) {
  RuntimeABI &ABI = D.abi();
  Value *Base = ABI.loadRegionBase(B);
  Value *Span = ABI.loadRegionSpan(B);
  Value *Offset = B.CreateSub(B.CreatePtrToInt(Ptr, B.getInt64Ty()),
                              B.CreatePtrToInt(Base, B.getInt64Ty()));
  Value *InRegion = B.CreateICmpULT(Offset, Span, "in.region");
  Value *Slot = B.CreateGEP(B.getInt8Ty(), Ptr, B.CreateShl(Span, 1));
  return B.CreateSelect(InRegion, Slot, Shadow, "pointer.shadow.slot");
}

/// The forward sweep of storing a pointer (aggregate) into memory with
/// shadows: its shadow goes to the pointer-shadow slot, journaled.
void GradientGenerator::storePointerShadow(IRBuilder<> &B, StoreInst &SI) {
  Value *Ptr = SI.getPointerOperand();
  Value *Slot = pointerShadowSlot(B, fwdValue(Ptr), fwdShadow(Ptr));
  Type *Ty = SI.getValueOperand()->getType();
  emitJournalBarrier(B, D.abi(), Slot, B.getInt64(DL.getTypeStoreSize(Ty)),
                     shadowAlign(SI.getAlign()));
  B.CreateAlignedStore(fwdShadow(SI.getValueOperand()), Slot,
                       shadowAlign(SI.getAlign()), SI.isVolatile());
}

/// The adjoints of an arena block lie one region span above it.
Value *GradientGenerator::derivedArenaShadow(IRBuilder<> &B, Value *Block) {
  return B.CreateGEP(B.getInt8Ty(), Block, D.abi().loadRegionSpan(B));
}

/// In checkpointed code stack slots exist only in atomic leaves, and their
/// shadows die within a stage: scratch memory the journal skips.
FunctionCallee GradientGenerator::slotShadowAlloc() {
  return Checkpointed ? D.abi().scratchShadowAlloc() : D.abi().shadowAlloc();
}

FunctionCallee GradientGenerator::slotShadowFree() {
  return Checkpointed ? D.abi().scratchShadowFree() : D.abi().shadowFree();
}

} // namespace capsule
