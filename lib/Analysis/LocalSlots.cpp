//===- LocalSlots.cpp - Memory only the function's own code reaches -------===//
#include "Analysis/LocalSlots.h"

#include "Interrupt/ResumableSplitter.h"
#include "Support/RuntimeABI.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace capsule {

namespace {

/// What a pointer is known to point into while the map is being built:
/// undecided (a phi in a cycle not yet resolved), one slot, or anything.
struct Target {
  enum { Undecided, Slot, Anywhere } Kind = Undecided;
  LocalSlot S{};

  static Target slot(LocalSlot S) { return {Slot, S}; }
  static Target anywhere() { return {Anywhere, {}}; }
  bool operator==(const Target &O) const {
    return Kind == O.Kind && (Kind != Slot || S == O.S);
  }
  /// The target of a pointer that is either this one or \p O.
  Target join(const Target &O) const {
    if (Kind == Undecided)
      return O;
    if (O.Kind == Undecided || *this == O)
      return *this;
    return anywhere();
  }
};

bool isJournalBarrier(const User *U) {
  auto *Call = dyn_cast<CallBase>(U);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == JournalBarrierName;
}

/// Only constant offsets from the frame tell the record's slots apart: any
/// other use of the frame might reach every slot.
bool addressedByConstantOffsets(const Argument &Frame) {
  return all_of(Frame.users(), [&](const User *U) {
    auto *GEP = dyn_cast<GetElementPtrInst>(U);
    return isJournalBarrier(U) || (GEP && GEP->getPointerOperand() == &Frame &&
                                   GEP->hasAllConstantIndices());
  });
}

} // namespace

LocalSlots::LocalSlots(Function &F) : F(F) {
  std::optional<OwnRecordArea> Own = ownRecordArea(F);
  if (Own && addressedByConstantOffsets(*F.getArg(0))) {
    Frame = F.getArg(0);
    OwnBegin = Own->Begin;
    OwnEnd = Own->End;
  }
  mapPointers();
  findPrivateSlots();
}

std::optional<LocalSlot> LocalSlots::slotOf(const Value *Ptr) const {
  auto It = PointsInto.find(Ptr);
  return It == PointsInto.end() ? std::nullopt : It->second;
}

/// Pointers into a slot: its address (an alloca, a constant offset into
/// the record's own area), addresses computed from it, and phis and selects
/// of those. The phis matter: resume blocks recompute a slot's address and
/// SSA repair joins the copies, and loops advance pointers through arrays.
/// Phis start undecided, so that a cycle of them resolves to its entries.
void LocalSlots::mapPointers() {
  DenseMap<const Value *, Target> Targets;
  auto TargetOf = [&](const Value *V) {
    if (!isa<Instruction>(V))
      return Target::anywhere();
    return Targets.lookup(V);
  };
  auto Define = [&](const Instruction &I) {
    if (isa<AllocaInst>(I))
      return Target::slot({&I, 0});
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
      if (!Frame || GEP->getPointerOperand() != Frame)
        return TargetOf(GEP->getPointerOperand());
      APInt Offset(64, 0);
      GEP->accumulateConstantOffset(F.getDataLayout(), Offset);
      uint64_t At = Offset.getZExtValue();
      return At >= OwnBegin && At < OwnEnd ? Target::slot({Frame, At})
                                           : Target::anywhere();
    }
    if (isa<PHINode, SelectInst>(I)) {
      Target Joined;
      for (const Use &U : I.operands())
        if (U->getType()->isPointerTy())
          Joined = Joined.join(TargetOf(U));
      return Joined;
    }
    return Target::anywhere();
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      if (!I.getType()->isPointerTy())
        continue;
      Target New = Define(I);
      Target &Old = Targets[&I];
      if (!(New == Old)) {
        Old = New;
        Changed = true;
      }
    }
  }
  for (auto &[V, T] : Targets)
    if (T.Kind != Target::Undecided)
      PointsInto[V] =
          T.Kind == Target::Slot ? std::optional(T.S) : std::nullopt;
}

void LocalSlots::findPrivateSlots() {
  DenseSet<LocalSlot> Escaping;
  auto StaysInSlot = [&](const User *U, const Value *Ptr, LocalSlot S) {
    if (isa<LoadInst, LifetimeIntrinsic>(U) || isJournalBarrier(U))
      return true;
    if (auto *SI = dyn_cast<StoreInst>(U))
      return SI->getValueOperand() != Ptr;
    if (auto *MS = dyn_cast<MemSetInst>(U))
      return MS->getRawDest() == Ptr;
    if (isa<GetElementPtrInst, PHINode, SelectInst>(U))
      return slotOf(U) == S;
    return false;
  };
  for (auto &[Ptr, S] : PointsInto) {
    if (!S)
      continue;
    Private.insert(*S);
    for (const User *U : Ptr->users())
      if (!StaysInSlot(U, Ptr, *S))
        Escaping.insert(*S);
  }
  for (LocalSlot S : Escaping)
    Private.erase(S);
}

} // namespace capsule
