//===- TapeRecords.cpp - Per-block tape records ---------------------------===//
//
// See GradientGenerator.h for the record scheme. Fields are packed in the
// order the reverse sweep first asks for them, without padding: unaligned
// loads and stores cost next to nothing on the targets Capsule supports,
// and padding would grow the tape by up to a third.
//===----------------------------------------------------------------------===//
#include "Reverse/GradientGenerator.h"

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
  R.Fields.push_back({V, Kind, Ty, Offset});
  IRBuilder<> B(R.HeaderEnd);
  Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), R.Base, Offset);
  LoadInst *Load = B.CreateAlignedLoad(Ty, Addr, Align(1));
  noteMemoryAccess(Load, /*PrimalPtr=*/nullptr);
  R.Loaded[Key] = Load;
  return Load;
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
