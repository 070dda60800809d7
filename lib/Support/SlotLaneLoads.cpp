//===- SlotLaneLoads.cpp - Vector loads of stack slots, by lane ----------===//
#include "Support/SlotLaneLoads.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace capsule {

namespace {

/// Loads lanes of a vector load one at a time, each at most once per type.
class LaneLoader {
public:
  explicit LaneLoader(LoadInst &Load)
      : Load(Load), B(&Load), LaneBytes(cast<FixedVectorType>(Load.getType())
                                            ->getElementType()
                                            ->getPrimitiveSizeInBits() /
                                        8) {}

  /// Lane \p K of the loaded vector as a value of type \p Ty (the lane's
  /// type, an integer or a pointer of its size).
  Value *lane(unsigned K, Type *Ty) {
    Value *&Loaded = Lanes[{K, Ty}];
    if (!Loaded) {
      Value *At = B.CreateConstInBoundsGEP1_64(
          B.getInt8Ty(), Load.getPointerOperand(), uint64_t(K) * LaneBytes);
      Loaded = B.CreateAlignedLoad(
          Ty, At, commonAlignment(Load.getAlign(), uint64_t(K) * LaneBytes));
    }
    return Loaded;
  }

private:
  LoadInst &Load;
  IRBuilder<> B;
  uint64_t LaneBytes;
  DenseMap<std::pair<unsigned, Type *>, Value *> Lanes;
};

/// The constant lane \p Extract takes, if it is one within \p Lanes.
std::optional<unsigned> constantLane(const ExtractElementInst &Extract,
                                     unsigned Lanes) {
  auto *K = dyn_cast<ConstantInt>(Extract.getIndexOperand());
  if (!K || K->getZExtValue() >= Lanes)
    return std::nullopt;
  return K->getZExtValue();
}

/// Whether every user of \p Load takes its lanes one at a time.
bool takesLanesApart(const LoadInst &Load) {
  auto *VTy = cast<FixedVectorType>(Load.getType());
  unsigned Lanes = VTy->getNumElements();
  for (const User *U : Load.users()) {
    if (auto *Extract = dyn_cast<ExtractElementInst>(U)) {
      if (!constantLane(*Extract, Lanes))
        return false;
      continue;
    }
    if (auto *Shuffle = dyn_cast<ShuffleVectorInst>(U)) {
      if (Shuffle->getOperand(0) != &Load ||
          !isa<PoisonValue, UndefValue>(Shuffle->getOperand(1)))
        return false;
      continue;
    }
    auto *Cast = dyn_cast<BitCastInst>(U);
    auto *IntTy = Cast ? dyn_cast<FixedVectorType>(Cast->getType()) : nullptr;
    if (!IntTy || IntTy->getNumElements() != Lanes ||
        !IntTy->getElementType()->isIntegerTy())
      return false;
    for (const User *CU : Cast->users()) {
      auto *Extract = dyn_cast<ExtractElementInst>(CU);
      if (!Extract || !constantLane(*Extract, Lanes))
        return false;
    }
  }
  return true;
}

void loadLanesApart(LoadInst &Load) {
  auto *VTy = cast<FixedVectorType>(Load.getType());
  unsigned Lanes = VTy->getNumElements();
  Type *LaneTy = VTy->getElementType();
  LaneLoader Loader(Load);
  for (User *U : make_early_inc_range(Load.users())) {
    if (auto *Extract = dyn_cast<ExtractElementInst>(U)) {
      Extract->replaceAllUsesWith(
          Loader.lane(*constantLane(*Extract, Lanes), LaneTy));
      Extract->eraseFromParent();
      continue;
    }
    if (auto *Shuffle = dyn_cast<ShuffleVectorInst>(U)) {
      // The lanes it takes, put back into a vector of their own.
      IRBuilder<> B(Shuffle);
      Value *Vec = PoisonValue::get(VTy);
      SmallDenseSet<int, 8> Taken;
      for (int M : Shuffle->getShuffleMask())
        if (M >= 0 && unsigned(M) < Lanes && Taken.insert(M).second)
          Vec = B.CreateInsertElement(Vec, Loader.lane(M, LaneTy), M);
      Shuffle->setOperand(0, Vec);
      continue;
    }
    auto *Cast = cast<BitCastInst>(U);
    Type *IntTy = cast<FixedVectorType>(Cast->getType())->getElementType();
    for (User *CU : make_early_inc_range(Cast->users())) {
      auto *Extract = cast<ExtractElementInst>(CU);
      unsigned K = *constantLane(*Extract, Lanes);
      for (User *EU : make_early_inc_range(Extract->users()))
        if (auto *ToPtr = dyn_cast<IntToPtrInst>(EU)) {
          ToPtr->replaceAllUsesWith(Loader.lane(K, ToPtr->getType()));
          ToPtr->eraseFromParent();
        }
      if (!Extract->use_empty())
        Extract->replaceAllUsesWith(Loader.lane(K, IntTy));
      Extract->eraseFromParent();
    }
    Cast->eraseFromParent();
  }
  Load.eraseFromParent();
}

/// The stack slot \p Load reads, unless promotion to registers will take
/// care of it (a slot only ever accessed whole).
const AllocaInst *unpromotableSlot(const LoadInst &Load) {
  auto *Slot =
      dyn_cast<AllocaInst>(Load.getPointerOperand()->stripInBoundsOffsets());
  return Slot && !isAllocaPromotable(Slot) ? Slot : nullptr;
}

/// Whether a lane of \p Load becomes a pointer (bitcast to integer lanes,
/// one extracted and turned into a pointer): the memory holds a pointer
/// there, wherever it is (Eigen's evaluator of a scaled Map, a double and
/// the Map's data pointer side by side, read through a reference).
bool laneBecomesPointer(const LoadInst &Load) {
  return any_of(Load.users(), [](const User *U) {
    return isa<BitCastInst>(U) && any_of(U->users(), [](const User *E) {
             return isa<ExtractElementInst>(E) &&
                    any_of(E->users(),
                           [](const User *P) { return isa<IntToPtrInst>(P); });
           });
  });
}

} // namespace

void loadSlotLanesApart(Function &F) {
  SmallVector<LoadInst *, 4> Loads;
  for (Instruction &I : instructions(F))
    if (auto *Load = dyn_cast<LoadInst>(&I))
      if (Load->isSimple() && isa<FixedVectorType>(Load->getType()) &&
          Load->getType()->getScalarType()->isFloatingPointTy() &&
          (unpromotableSlot(*Load) || laneBecomesPointer(*Load)) &&
          takesLanesApart(*Load))
        Loads.push_back(Load);
  for (LoadInst *Load : Loads)
    loadLanesApart(*Load);
}

} // namespace capsule
