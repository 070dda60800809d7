//===- PointerVectorLanes.cpp - Pointer vectors moved lane by lane --------===//
#include "Support/PointerVectorLanes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace capsule {

namespace {

FixedVectorType *pointerVectorType(Type *T) {
  auto *VTy = dyn_cast<FixedVectorType>(T);
  return VTy && VTy->getElementType()->isPointerTy() ? VTy : nullptr;
}

class LaneMover {
public:
  explicit LaneMover(Function &F) : DL(F.getDataLayout()) {}

  /// \p LI as one load per lane; its lane extractions read them.
  void splitLoad(LoadInst &LI) {
    auto *VTy = cast<FixedVectorType>(LI.getType());
    IRBuilder<> B(&LI);
    SmallVector<Value *, 4> &Loaded = Lanes[&LI];
    for (unsigned K = 0; K < VTy->getNumElements(); ++K) {
      LoadInst *Lane = B.CreateAlignedLoad(
          VTy->getElementType(), laneAddress(B, LI.getPointerOperand(), VTy, K),
          laneAlign(LI.getAlign(), VTy, K));
      Lane->copyMetadata(LI, {LLVMContext::MD_tbaa, LLVMContext::MD_dbg});
      Loaded.push_back(Lane);
    }
    for (User *U : make_early_inc_range(LI.users()))
      if (auto *Extract = dyn_cast<ExtractElementInst>(U))
        if (auto *Index = dyn_cast<ConstantInt>(Extract->getIndexOperand());
            Index && Index->getValue().ult(Loaded.size())) {
          Extract->replaceAllUsesWith(Loaded[Index->getZExtValue()]);
          Extract->eraseFromParent();
        }
  }

  /// \p SI as one store per lane of what it stores.
  void splitStore(StoreInst &SI) {
    auto *VTy = cast<FixedVectorType>(SI.getValueOperand()->getType());
    IRBuilder<> B(&SI);
    for (unsigned K = 0; K < VTy->getNumElements(); ++K) {
      StoreInst *Lane =
          B.CreateAlignedStore(laneOf(B, SI.getValueOperand(), K),
                               laneAddress(B, SI.getPointerOperand(), VTy, K),
                               laneAlign(SI.getAlign(), VTy, K));
      Lane->copyMetadata(SI, {LLVMContext::MD_tbaa, LLVMContext::MD_dbg});
    }
    SI.eraseFromParent();
  }

  /// The split loads that something else than a lane extraction or a split
  /// store still reads get their vector back, built from the lanes.
  void finish() {
    for (auto &[V, Loaded] : Lanes) {
      auto *LI = cast<LoadInst>(V);
      if (!LI->use_empty()) {
        IRBuilder<> B(LI);
        Value *Vector = PoisonValue::get(LI->getType());
        for (unsigned K = 0; K < Loaded.size(); ++K)
          Vector = B.CreateInsertElement(Vector, Loaded[K], K);
        LI->replaceAllUsesWith(Vector);
      }
      LI->eraseFromParent();
    }
  }

private:
  Value *laneAddress(IRBuilder<> &B, Value *Base, FixedVectorType *VTy,
                     unsigned K) {
    uint64_t Offset = K * DL.getTypeAllocSize(VTy->getElementType());
    return Offset ? B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset)
                  : Base;
  }

  Align laneAlign(Align Whole, FixedVectorType *VTy, unsigned K) {
    return commonAlignment(Whole,
                           K * DL.getTypeAllocSize(VTy->getElementType()));
  }

  /// Lane \p K of pointer vector \p V: the pointer a split load loaded, the
  /// one an insertion or shuffle put there, or an extraction.
  Value *laneOf(IRBuilder<> &B, Value *V, unsigned K) {
    if (auto It = Lanes.find(V); It != Lanes.end())
      return It->second[K];
    if (auto *Insert = dyn_cast<InsertElementInst>(V))
      if (auto *Index = dyn_cast<ConstantInt>(Insert->getOperand(2)))
        return Index->getZExtValue() == K ? Insert->getOperand(1)
                                          : laneOf(B, Insert->getOperand(0), K);
    if (auto *Shuffle = dyn_cast<ShuffleVectorInst>(V)) {
      int From = Shuffle->getMaskValue(K);
      unsigned Width = cast<FixedVectorType>(Shuffle->getOperand(0)->getType())
                           ->getNumElements();
      if (From >= 0)
        return unsigned(From) < Width
                   ? laneOf(B, Shuffle->getOperand(0), From)
                   : laneOf(B, Shuffle->getOperand(1), From - Width);
    }
    return B.CreateExtractElement(V, K);
  }

  const DataLayout &DL;
  DenseMap<Value *, SmallVector<Value *, 4>> Lanes;
};

} // namespace

void movePointerVectorsByLane(Function &F) {
  SmallVector<LoadInst *, 8> Loads;
  SmallVector<StoreInst *, 8> Stores;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I);
          LI && LI->isSimple() && pointerVectorType(LI->getType()))
        Loads.push_back(LI);
      if (auto *SI = dyn_cast<StoreInst>(&I);
          SI && SI->isSimple() &&
          pointerVectorType(SI->getValueOperand()->getType()))
        Stores.push_back(SI);
    }
  if (Loads.empty() && Stores.empty())
    return;
  LaneMover Mover(F);
  for (LoadInst *LI : Loads)
    Mover.splitLoad(*LI);
  for (StoreInst *SI : Stores)
    Mover.splitStore(*SI);
  Mover.finish();
}

} // namespace capsule
