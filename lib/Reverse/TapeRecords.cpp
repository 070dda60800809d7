//===- TapeRecords.cpp - Per-block tape records ---------------------------===//
//
// See GradientGenerator.h for the record scheme. Fields are packed in the
// order the reverse sweep first asks for them, without padding: unaligned
// loads and stores cost next to nothing on the targets Capsule supports,
// and padding would grow the tape by up to a third.
//===----------------------------------------------------------------------===//
#include "Reverse/GradientGenerator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace llvm;

namespace capsule {

Value *GradientGenerator::recordField(BasicBlock *BB, Value *V, unsigned Kind,
                                      Type *Ty) {
  Record &R = Records[BB];
  auto Key = std::make_pair(V, Kind);
  if (Value *Loaded = R.Loaded.lookup(Key))
    return Loaded;
  uint64_t Offset = R.Size;
  R.Size = Offset + DL.getTypeStoreSize(Ty);
  IRBuilder<> B(R.HeaderEnd);
  // An instruction even at offset 0: layOutFields moves it.
  auto *Addr = GetElementPtrInst::CreateInBounds(
      B.getInt8Ty(), R.Base, {B.getInt64(Offset)}, "", R.HeaderEnd);
  LoadInst *Load = B.CreateAlignedLoad(Ty, Addr, Align(1));
  noteMemoryAccess(Load, /*PrimalPtr=*/nullptr);
  R.Fields.push_back({V, Kind, Ty, Offset, Load});
  R.Loaded[Key] = Load;
  return Load;
}

namespace {

/// Redoing a field's value in the reverse block from what its record holds:
/// the values it is computed from, through at most MaxSteps instructions of
/// cheap arithmetic (GradientGenerator::isCheapArithmetic), each no dearer
/// than the store and load that taping the value costs.
class FieldRedo {
public:
  using LoadedMap = DenseMap<std::pair<Value *, unsigned>, Value *>;
  static constexpr unsigned MaxSteps = 3;

  FieldRedo(const LoadedMap &Loaded, unsigned Kind, LoadInst *Field)
      : Loaded(Loaded), Kind(Kind), Field(Field), After(Field) {}

  /// Whether \p I can be redone: every value it needs is held, in the
  /// field's block, and nothing reads the field before the last of them.
  bool feasible(Instruction &I) {
    if (!all_of(I.operands(), [&](Value *Op) { return reach(Op); }))
      return false;
    return all_of(Field->users(), [&](User *U) {
      auto *UI = cast<Instruction>(U);
      return UI->getParent() != After->getParent() || After->comesBefore(UI);
    });
  }

  /// Emits \p I's redo after the last value it needs; feasible() first.
  Value *emit(Instruction &I) {
    IRBuilder<> B(After->getNextNode());
    return clone(B, I);
  }

private:
  bool reach(Value *V) {
    if (isa<Constant>(V))
      return true;
    if (Value *Known = Loaded.lookup({V, Kind})) {
      auto *KnownI = dyn_cast<Instruction>(Known);
      if (!KnownI)
        return true;
      if (KnownI->getParent() != Field->getParent())
        return false;
      if (After->comesBefore(KnownI))
        After = KnownI;
      return true;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !GradientGenerator::isCheapArithmetic(*I) || ++Steps > MaxSteps)
      return false;
    return all_of(I->operands(), [&](Value *Op) { return reach(Op); });
  }

  Value *value(IRBuilder<> &B, Value *V) {
    if (isa<Constant>(V))
      return V;
    if (Value *Known = Loaded.lookup({V, Kind}))
      return Known;
    Value *&Made = Redone[V];
    if (!Made)
      Made = clone(B, *cast<Instruction>(V));
    return Made;
  }

  Instruction *clone(IRBuilder<> &B, Instruction &I) {
    Instruction *Copy = I.clone();
    Copy->setDebugLoc(DebugLoc());
    for (unsigned K = 0; K < I.getNumOperands(); ++K)
      Copy->setOperand(K, value(B, I.getOperand(K)));
    return B.Insert(Copy);
  }

  const LoadedMap &Loaded;
  unsigned Kind;
  LoadInst *Field;
  Instruction *After; ///< the last value the redo needs, or the field
  unsigned Steps = 0;
  DenseMap<Value *, Value *> Redone;
};

} // namespace

/// The reverse sweep asks for values in the order it needs them: often a
/// result first (its users' adjoints come first), then the operands its own
/// adjoint needs. Once every request is known, a field holding cheap
/// arithmetic on values its record holds is redone from them (FieldRedo)
/// instead, and leaves the tape.
void GradientGenerator::redoFieldsFromOthers() {
  SmallPtrSet<Instruction *, 16> Dropped;
  for (auto &[BB, R] : Records) {
    unsigned Before = Dropped.size();
    for (Field &F : R.Fields) {
      auto *I = dyn_cast_or_null<Instruction>(F.V);
      if (!I || F.Kind != PrimalField || !isCheapArithmetic(*I))
        continue;
      FieldRedo Redo(R.Loaded, PrimalField, F.Load);
      if (!Redo.feasible(*I))
        continue;
      Value *Copy = Redo.emit(*I);
      F.Load->replaceAllUsesWith(Copy);
      R.Loaded[{F.V, PrimalField}] = Copy;
      Dropped.insert(F.Load);
      F.Load = nullptr;
    }
    if (Dropped.size() != Before)
      layOutFields(R);
  }
  erase_if(MemoryAccesses,
           [&](const auto &Access) { return Dropped.contains(Access.first); });
  for (Instruction *Load : Dropped) {
    auto *Addr = cast<Instruction>(getLoadStorePointerOperand(Load));
    Load->eraseFromParent();
    Addr->eraseFromParent();
  }
}

/// Packs the fields still read (Load set) from offset 0 again.
void GradientGenerator::layOutFields(Record &R) {
  erase_if(R.Fields, [](const Field &F) { return !F.Load; });
  R.Size = 0;
  for (Field &F : R.Fields) {
    F.Offset = R.Size;
    R.Size += DL.getTypeStoreSize(F.Ty);
    auto *Addr = cast<GetElementPtrInst>(F.Load->getPointerOperand());
    Addr->setOperand(
        1, ConstantInt::get(Addr->getOperand(1)->getType(), F.Offset));
  }
}

void GradientGenerator::emitPops() {
  for (auto &[BB, R] : Records) {
    R.HeaderEnd->eraseFromParent();
    if (R.Fields.empty()) {
      R.Base->eraseFromParent();
      continue;
    }
    IRBuilder<> B(R.Base);
    Value *Rec = D.abi().emitTapePop(B, R.Size);
    R.Base->replaceAllUsesWith(Rec);
    R.Base->eraseFromParent();
  }
}

void GradientGenerator::emitPushes() {
  for (auto &[BB, R] : Records) {
    if (R.Fields.empty())
      continue;
    auto *Term = cast<Instruction>(FwdMap[BB->getTerminator()]);
    IRBuilder<> B(Term);
    Value *Rec = D.abi().emitTapePush(B, R.Size);
    for (const Field &F : R.Fields) {
      Value *V = !F.V                    ? FwdPredIndex.lookup(BB)
                 : F.Kind == PrimalField ? fwdValue(F.V)
                 : F.Kind == ShadowField
                     ? fwdShadow(F.V)
                     : FwdCallFields.lookup({F.V, F.Kind});
      Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, F.Offset);
      B.CreateAlignedStore(V, Addr, Align(1));
    }
  }
}

} // namespace capsule
