//===- TapeRecords.cpp - Per-block tape records ---------------------------===//
//
// See GradientGenerator.h for the record scheme. Fields are laid out in the
// order the reverse sweep first asks for them, each aligned to at most 8
// bytes (records start 8-byte aligned; wider alignment is not needed for
// correctness and would waste tape).
//===----------------------------------------------------------------------===//
#include "GradientGenerator.h"

using namespace llvm;

namespace capsule {

static Align fieldAlign(const DataLayout &DL, Type *Ty) {
  return std::min(DL.getABITypeAlign(Ty), Align(8));
}

Value *GradientGenerator::recordField(BasicBlock *BB, Value *V, unsigned Kind,
                                      Type *Ty) {
  Record &R = Records[BB];
  auto Key = std::make_pair(V, Kind);
  if (Value *Loaded = R.Loaded.lookup(Key))
    return Loaded;
  Align A = fieldAlign(DL, Ty);
  uint64_t Offset = alignTo(R.Size, A);
  R.Size = Offset + DL.getTypeStoreSize(Ty);
  R.Fields.push_back({V, Kind, Ty, Offset});
  // Loads go right after the placeholder, so they dominate the whole
  // reverse block however it is split later.
  IRBuilder<> B(R.Base->getParent(), std::next(R.Base->getIterator()));
  Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), R.Base, Offset);
  LoadInst *Load = B.CreateAlignedLoad(Ty, Addr, A);
  R.Loaded[Key] = Load;
  return Load;
}

void GradientGenerator::emitPops() {
  for (auto &[BB, R] : Records) {
    if (R.Fields.empty()) {
      R.Base->eraseFromParent();
      continue;
    }
    R.Size = alignTo(R.Size, 8);
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
      Value *V = !F.V                      ? FwdPredIndex.lookup(BB)
                 : F.Kind == PrimalField ? fwdValue(F.V)
                 : F.Kind == ShadowField ? fwdShadow(F.V)
                                         : FwdByValShadows.lookup({F.V, F.Kind});
      Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, F.Offset);
      B.CreateAlignedStore(V, Addr, fieldAlign(DL, F.Ty));
    }
  }
}

} // namespace capsule
