//===- MixedCopies.cpp - Struct copies split by the kinds they move ------===//
#include "Support/MixedCopies.h"

#include "Analysis/MemoryKinds.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// The stretches the copy moves, from the layout found at its destination
/// or its source; none when neither tells or the two disagree.
std::optional<SmallVector<MemoryRun, 4>> copiedRuns(const MemCpyInst &Copy,
                                                    uint64_t Bytes) {
  const DataLayout &DL = Copy.getDataLayout();
  auto Dst = runsUnder(Copy.getRawDest(), Bytes, DL);
  auto Src = runsUnder(Copy.getRawSource(), Bytes, DL);
  if (!Dst)
    return Src;
  if (!Src || *Dst == *Src)
    return Dst;
  return std::nullopt;
}

void splitCopy(MemCpyInst &Copy, ArrayRef<MemoryRun> Runs, uint64_t Bytes) {
  IRBuilder<> B(&Copy);
  auto Piece = [&](uint64_t Offset, uint64_t Length, ElementKind Kind) {
    auto At = [&](Value *Ptr) {
      return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, Offset);
    };
    MaybeAlign DstAlign, SrcAlign;
    if (MaybeAlign A = Copy.getDestAlign())
      DstAlign = commonAlignment(*A, Offset);
    if (MaybeAlign A = Copy.getSourceAlign())
      SrcAlign = commonAlignment(*A, Offset);
    CallInst *Part =
        B.CreateMemCpy(At(Copy.getRawDest()), DstAlign, At(Copy.getRawSource()),
                       SrcAlign, Length, Copy.isVolatile());
    Part->setDebugLoc(Copy.getDebugLoc());
    recordCopiedKind(*Part, Kind);
  };
  uint64_t Done = 0;
  for (const MemoryRun &Run : Runs) {
    if (Run.Offset > Done)
      Piece(Done, Run.Offset - Done, ElementKind::Integer);
    Piece(Run.Offset, Run.Bytes, Run.Kind);
    Done = Run.Offset + Run.Bytes;
  }
  if (Done < Bytes)
    Piece(Done, Bytes - Done, ElementKind::Integer);
  Copy.eraseFromParent();
}

} // namespace

void splitMixedCopies(Module &M) {
  SmallVector<MemCpyInst *, 16> Copies;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Copy = dyn_cast<MemCpyInst>(&I))
        if (isa<ConstantInt>(Copy->getLength()))
          Copies.push_back(Copy);
  for (MemCpyInst *Copy : Copies) {
    uint64_t Bytes = cast<ConstantInt>(Copy->getLength())->getZExtValue();
    std::optional<SmallVector<MemoryRun, 4>> Runs = copiedRuns(*Copy, Bytes);
    // One kind (integers aside) needs no split; no stretches: integers.
    if (Runs && !Runs->empty() && kindOfRuns(*Runs) == ElementKind::Unknown)
      splitCopy(*Copy, *Runs, Bytes);
  }
}

} // namespace capsule
