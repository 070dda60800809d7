//===- FloatBitOperations.cpp - Integer operations on floats' bits -------===//
#include "Support/FloatBitOperations.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ValueHandle.h"

using namespace llvm;

namespace capsule {

namespace {

/// What an integer operation does to a floating-point number's bits.
enum class SignOp { None, Identity, Zero, Abs, Negate, NegativeAbs };

/// \p V as a constant, folding the instructions of constants that -O0 code
/// builds a mask with (insertelement and shufflevector of a splat).
Constant *foldedConstant(Value *V, const DataLayout &DL, unsigned Depth = 0) {
  if (auto *C = dyn_cast<Constant>(V))
    return C;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || I->mayReadOrWriteMemory())
    return nullptr;
  SmallVector<Constant *, 4> Ops;
  for (Value *Op : I->operands()) {
    Constant *C = foldedConstant(Op, DL, Depth + 1);
    if (!C)
      return nullptr;
    Ops.push_back(C);
  }
  return ConstantFoldInstOperands(I, Ops, DL);
}

/// What \p Opcode with the constant \p Mask does to one floating-point
/// number's bits, whose sign bit is \p Sign.
SignOp laneSignOp(unsigned Opcode, const APInt &Mask, const APInt &Sign) {
  switch (Opcode) {
  case Instruction::Xor:
    return Mask == Sign    ? SignOp::Negate
           : Mask.isZero() ? SignOp::Identity
                           : SignOp::None;
  case Instruction::Or:
    return Mask == Sign    ? SignOp::NegativeAbs
           : Mask.isZero() ? SignOp::Identity
                           : SignOp::None;
  case Instruction::And:
    return Mask == ~Sign      ? SignOp::Abs
           : Mask.isAllOnes() ? SignOp::Identity
           : Mask.isZero()    ? SignOp::Zero
                              : SignOp::None;
  default:
    return SignOp::None;
  }
}

/// What \p BO does to the sign bits of the floating-point numbers whose
/// bits its operand 0 or 1 holds, lane by lane (SSE code negates some
/// lanes only: Eigen's paddsub xors with {-0.0, 0.0}); the other operand
/// is the mask. Empty where some lane is not a sign operation.
SmallVector<SignOp, 8> signOpsOf(BinaryOperator &BO, Value *&Bits) {
  const DataLayout &DL = BO.getDataLayout();
  unsigned Width = BO.getType()->getScalarSizeInBits();
  if (Width != 32 && Width != 64)
    return {};
  APInt Sign = APInt::getSignMask(Width);
  unsigned Lanes = 1;
  if (auto *VT = dyn_cast<FixedVectorType>(BO.getType()))
    Lanes = VT->getNumElements();
  for (unsigned K = 0; K < 2; ++K) {
    Constant *Mask = foldedConstant(BO.getOperand(1 - K), DL);
    if (!Mask)
      continue;
    SmallVector<SignOp, 8> Ops;
    for (unsigned L = 0; L < Lanes; ++L) {
      Constant *Lane =
          Mask->getType()->isVectorTy() ? Mask->getAggregateElement(L) : Mask;
      auto *M = dyn_cast_or_null<ConstantInt>(Lane);
      SignOp Op = M ? laneSignOp(BO.getOpcode(), M->getValue(), Sign)
                  : isa_and_nonnull<UndefValue>(Lane) ? SignOp::Identity
                                                      : SignOp::None;
      if (Op == SignOp::None)
        break;
      Ops.push_back(Op);
    }
    if (Ops.size() == Lanes) {
      Bits = BO.getOperand(K);
      return Ops;
    }
  }
  return {};
}

/// The floating-point type all of \p I's users read its bits back as; null
/// if some user does otherwise.
Type *readBackType(Instruction &I) {
  Type *Read = nullptr;
  for (User *U : I.users()) {
    auto *Cast = dyn_cast<BitCastInst>(U);
    if (!Cast || !Cast->getType()->isFPOrFPVectorTy() ||
        (Read && Read != Cast->getType()))
      return nullptr;
    Read = Cast->getType();
  }
  return Read;
}

/// \p Bits as floating-point type \p FloatTy: the value it is a bitcast of,
/// or a new bitcast.
Value *asFloat(IRBuilder<> &B, Value *Bits, Type *FloatTy) {
  if (isa<PoisonValue, UndefValue>(Bits))
    return PoisonValue::get(FloatTy);
  auto *Cast = dyn_cast<BitCastInst>(Bits);
  if (Cast && Cast->getSrcTy() == FloatTy)
    return Cast->getOperand(0);
  return B.CreateBitCast(Bits, FloatTy);
}

/// Replaces \p I, whose users are all bitcasts to floating point, with
/// \p Result.
void replaceReadBack(Instruction &I, Value *Result) {
  for (User *U : make_early_inc_range(I.users())) {
    U->replaceAllUsesWith(Result);
    cast<Instruction>(U)->eraseFromParent();
  }
  I.eraseFromParent();
}

/// \p X with sign operation \p Op applied.
Value *applySignOp(IRBuilder<> &B, SignOp Op, Value *X) {
  switch (Op) {
  case SignOp::Negate:
    return B.CreateFNeg(X);
  case SignOp::Abs:
    return B.CreateUnaryIntrinsic(Intrinsic::fabs, X);
  case SignOp::NegativeAbs:
    return B.CreateFNeg(B.CreateUnaryIntrinsic(Intrinsic::fabs, X));
  case SignOp::Zero:
    return Constant::getNullValue(X->getType());
  default:
    return X;
  }
}

void rewriteSignMask(BinaryOperator &BO) {
  Value *Bits = nullptr;
  SmallVector<SignOp, 8> Ops = signOpsOf(BO, Bits);
  Type *FloatTy = Ops.empty() ? nullptr : readBackType(BO);
  if (!FloatTy ||
      FloatTy->getScalarSizeInBits() != BO.getType()->getScalarSizeInBits() ||
      all_of(Ops, [](SignOp Op) { return Op == SignOp::Identity; }))
    return;
  IRBuilder<> B(&BO);
  Value *X = asFloat(B, Bits, FloatTy);
  if (all_equal(Ops))
    return replaceReadBack(BO, applySignOp(B, Ops.front(), X));
  // Lanes apart: each operation where its lanes are, by constant selects.
  Value *Result = X;
  for (SignOp Op :
       {SignOp::Zero, SignOp::Abs, SignOp::Negate, SignOp::NegativeAbs}) {
    if (!is_contained(Ops, Op))
      continue;
    SmallVector<Constant *, 8> Where;
    for (SignOp LaneOp : Ops)
      Where.push_back(B.getInt1(LaneOp == Op));
    Result = B.CreateSelect(ConstantVector::get(Where), applySignOp(B, Op, X),
                            Result);
  }
  replaceReadBack(BO, Result);
}

/// The floating-point lanes a shuffle of integer lanes moves, \p Ratio
/// integer lanes to a float lane: each group of result lanes must be one
/// whole, aligned float lane of the operands (or all undefined).
std::optional<SmallVector<int, 8>> floatLaneMask(ArrayRef<int> Mask,
                                                 unsigned Ratio) {
  if (Mask.size() % Ratio)
    return std::nullopt;
  SmallVector<int, 8> Lanes;
  for (unsigned G = 0; G < Mask.size(); G += Ratio) {
    ArrayRef<int> Group = Mask.slice(G, Ratio);
    if (all_of(Group, [](int M) { return M == PoisonMaskElem; })) {
      Lanes.push_back(PoisonMaskElem);
      continue;
    }
    if (Group[0] < 0 || Group[0] % Ratio)
      return std::nullopt;
    for (unsigned K = 1; K < Ratio; ++K)
      if (Group[K] != Group[0] + int(K))
        return std::nullopt;
    Lanes.push_back(Group[0] / Ratio);
  }
  return Lanes;
}

void rewriteLaneShuffle(ShuffleVectorInst &SV) {
  auto *IntTy = dyn_cast<FixedVectorType>(SV.getOperand(0)->getType());
  auto *ReadTy = dyn_cast_or_null<FixedVectorType>(readBackType(SV));
  if (!IntTy || !IntTy->getElementType()->isIntegerTy() || !ReadTy)
    return;
  unsigned IntBits = IntTy->getScalarSizeInBits();
  unsigned FloatBits = ReadTy->getScalarSizeInBits();
  if (FloatBits % IntBits || IntTy->getNumElements() % (FloatBits / IntBits))
    return;
  unsigned Ratio = FloatBits / IntBits;
  std::optional<SmallVector<int, 8>> Lanes =
      floatLaneMask(SV.getShuffleMask(), Ratio);
  if (!Lanes)
    return;
  auto *FloatTy = FixedVectorType::get(ReadTy->getElementType(),
                                       IntTy->getNumElements() / Ratio);
  IRBuilder<> B(&SV);
  Value *A = SV.getOperand(0), *C = SV.getOperand(1);
  Value *Result = B.CreateShuffleVector(asFloat(B, A, FloatTy),
                                        asFloat(B, C, FloatTy), *Lanes);
  replaceReadBack(SV, Result);
}

/// Moves a bitcast of a select or phi to its operands (a choice between two
/// bit patterns read back as a float is a choice between two floats), so
/// that what the operands are made of meets the cast.
void castChoiceOperands(BitCastInst &Cast) {
  auto *Choice = dyn_cast<Instruction>(Cast.getOperand(0));
  if (!Choice || !Choice->hasOneUse())
    return;
  Type *Ty = Cast.getType();
  Value *Moved = nullptr;
  if (auto *Sel = dyn_cast<SelectInst>(Choice)) {
    IRBuilder<> B(Sel);
    Moved = B.CreateSelect(Sel->getCondition(),
                           B.CreateBitCast(Sel->getTrueValue(), Ty),
                           B.CreateBitCast(Sel->getFalseValue(), Ty));
  } else if (auto *Phi = dyn_cast<PHINode>(Choice)) {
    PHINode *New = PHINode::Create(Ty, Phi->getNumIncomingValues(), "",
                                   Phi->getIterator());
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      BasicBlock *Pred = Phi->getIncomingBlock(K);
      IRBuilder<> B(Pred->getTerminator());
      New->addIncoming(B.CreateBitCast(Phi->getIncomingValue(K), Ty), Pred);
    }
    Moved = New;
  } else {
    return;
  }
  Cast.replaceAllUsesWith(Moved);
  Cast.eraseFromParent();
  Choice->eraseFromParent();
}

/// bitcast(bitcast(x)) as one bitcast of x, or x itself.
void foldCastOfCast(BitCastInst &Cast) {
  auto *Inner = dyn_cast<BitCastInst>(Cast.getOperand(0));
  if (!Inner)
    return;
  Value *X = Inner->getOperand(0);
  if (X->getType() == Cast.getType())
    Cast.replaceAllUsesWith(X);
  else
    Cast.replaceAllUsesWith(
        IRBuilder<>(&Cast).CreateBitCast(X, Cast.getType()));
  Cast.eraseFromParent();
  if (Inner->use_empty())
    Inner->eraseFromParent();
}

/// extractelement(bitcast <N x double> v to <N x i64>, k) as the bits of
/// extractelement(v, k).
void extractBeforeCast(ExtractElementInst &Extract) {
  auto *Cast = dyn_cast<BitCastInst>(Extract.getVectorOperand());
  auto *FromTy = Cast ? dyn_cast<FixedVectorType>(Cast->getSrcTy()) : nullptr;
  if (!FromTy || !FromTy->getElementType()->isFloatingPointTy() ||
      FromTy->getNumElements() !=
          cast<FixedVectorType>(Cast->getType())->getNumElements())
    return;
  IRBuilder<> B(&Extract);
  Value *Lane =
      B.CreateExtractElement(Cast->getOperand(0), Extract.getIndexOperand());
  Extract.replaceAllUsesWith(B.CreateBitCast(Lane, Extract.getType()));
  Extract.eraseFromParent();
}

/// Brings the bitcasts between integer lane types (__m128i as 4 x i32 or
/// 2 x i64) and floating point next to the operations they surround.
void foldBitCasts(Function &F) {
  SmallVector<WeakTrackingVH, 16> Casts;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isa<BitCastInst>(I) && I.getType()->isFPOrFPVectorTy())
        Casts.push_back(&I);
  for (WeakTrackingVH &V : Casts)
    if (auto *Cast = dyn_cast_or_null<BitCastInst>(V))
      castChoiceOperands(*Cast);
  Casts.clear();
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isa<BitCastInst>(I))
        Casts.push_back(&I);
  for (WeakTrackingVH &V : Casts)
    if (auto *Cast = dyn_cast_or_null<BitCastInst>(V))
      foldCastOfCast(*Cast);
  SmallVector<ExtractElementInst *, 16> Extracts;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Extract = dyn_cast<ExtractElementInst>(&I))
        Extracts.push_back(Extract);
  for (ExtractElementInst *Extract : Extracts)
    extractBeforeCast(*Extract);
}

/// The phis of integers connected to \p Start through one another (as
/// incoming values or users), if every other user of each is a bitcast to
/// one floating-point type, which is returned with them.
std::optional<std::pair<SetVector<PHINode *>, Type *>>
phiWebReadAsFloat(PHINode &Start) {
  SetVector<PHINode *> Web;
  Web.insert(&Start);
  Type *Read = nullptr;
  for (size_t I = 0; I < Web.size(); ++I) {
    PHINode *Phi = Web[I];
    for (Value *In : Phi->incoming_values())
      if (auto *InPhi = dyn_cast<PHINode>(In))
        Web.insert(InPhi);
    for (User *U : Phi->users()) {
      if (auto *UserPhi = dyn_cast<PHINode>(U)) {
        Web.insert(UserPhi);
        continue;
      }
      auto *Cast = dyn_cast<BitCastInst>(U);
      if (!Cast || !Cast->getType()->isFPOrFPVectorTy() ||
          (Read && Read != Cast->getType()))
        return std::nullopt;
      Read = Cast->getType();
    }
  }
  if (!Read)
    return std::nullopt;
  return std::make_pair(std::move(Web), Read);
}

/// Phis of integers that are only read back as floating point, directly or
/// through one another, become phis of the floats: they choose between the
/// floats' bit patterns. Eigen's reductions with AVX leave such webs where
/// the optimizer merges the integer loads that several reductions make of
/// the same vector (one for cwiseAbs's sign mask).
void retypePhiWebs(Function &F) {
  SmallVector<PHINode *, 16> Phis;
  for (BasicBlock &BB : F)
    for (PHINode &Phi : BB.phis())
      if (Phi.getType()->isIntOrIntVectorTy())
        Phis.push_back(&Phi);
  DenseSet<PHINode *> Done;
  for (PHINode *Start : Phis) {
    if (Done.contains(Start))
      continue;
    auto Found = phiWebReadAsFloat(*Start);
    if (!Found)
      continue;
    auto &[Web, FloatTy] = *Found;
    Done.insert(Web.begin(), Web.end());
    if (FloatTy->getPrimitiveSizeInBits() !=
        Start->getType()->getPrimitiveSizeInBits())
      continue;
    DenseMap<PHINode *, PHINode *> Retyped;
    for (PHINode *Phi : Web)
      Retyped[Phi] = PHINode::Create(FloatTy, Phi->getNumIncomingValues(),
                                     Phi->getName(), Phi->getIterator());
    for (PHINode *Phi : Web)
      for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
        Value *In = Phi->getIncomingValue(K);
        BasicBlock *Pred = Phi->getIncomingBlock(K);
        auto *InPhi = dyn_cast<PHINode>(In);
        IRBuilder<> B(Pred->getTerminator());
        Retyped[Phi]->addIncoming(
            InPhi ? Retyped[InPhi] : asFloat(B, In, FloatTy), Pred);
      }
    for (PHINode *Phi : Web)
      for (User *U : make_early_inc_range(Phi->users()))
        if (auto *Cast = dyn_cast<BitCastInst>(U)) {
          Cast->replaceAllUsesWith(Retyped[Phi]);
          Cast->eraseFromParent();
        }
    for (PHINode *Phi : Web)
      Phi->dropAllReferences();
    for (PHINode *Phi : Web)
      Phi->eraseFromParent();
  }
}

/// Bitcasts of floats to bits that the rewrites left unused: they would
/// still read as values reinterpreted as bits.
void dropUnusedCasts(Function &F) {
  SmallVector<Instruction *, 8> Dead;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isa<BitCastInst>(I) && I.use_empty())
        Dead.push_back(&I);
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

} // namespace

void rewriteFloatBitOperations(Function &F) {
  foldBitCasts(F);
  // A rewrite makes its operands' users float operations, which lets the
  // operations they come from be rewritten too: the last one first.
  SmallVector<Instruction *, 16> Candidates;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (I.getType()->isIntOrIntVectorTy() &&
          isa<BinaryOperator, ShuffleVectorInst>(I))
        Candidates.push_back(&I);
  for (Instruction *I : reverse(Candidates)) {
    if (auto *BO = dyn_cast<BinaryOperator>(I))
      rewriteSignMask(*BO);
    else
      rewriteLaneShuffle(*cast<ShuffleVectorInst>(I));
  }
  retypePhiWebs(F);
  dropUnusedCasts(F);
}

void castBitsStoredAsFloat(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *SI = dyn_cast<StoreInst>(&I);
      if (!SI || SI->isVolatile())
        continue;
      Value *Bits = SI->getValueOperand();
      auto *Op = dyn_cast<Instruction>(Bits);
      if (!Op || !Bits->getType()->isIntOrIntVectorTy() ||
          !isa<BinaryOperator, ShuffleVectorInst>(Op))
        continue;
      Type *FloatTy = nullptr;
      auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand());
      if (Slot && Slot->getAllocatedType()->isFPOrFPVectorTy() &&
          DL.getTypeStoreSize(Bits->getType()) ==
              DL.getTypeStoreSize(Slot->getAllocatedType()))
        FloatTy = Slot->getAllocatedType();
      else if (Value *Unused = nullptr;
               isa<BinaryOperator>(Op) &&
               !signOpsOf(*cast<BinaryOperator>(Op), Unused).empty())
        FloatTy = Bits->getType()->getScalarSizeInBits() == 64
                      ? Type::getDoubleTy(F.getContext())
                      : Type::getFloatTy(F.getContext());
      else
        continue;
      if (auto *VTy = dyn_cast<FixedVectorType>(Bits->getType());
          VTy && !FloatTy->isVectorTy())
        FloatTy = FixedVectorType::get(FloatTy, VTy->getNumElements());
      SI->setOperand(0, IRBuilder<>(SI).CreateBitCast(Bits, FloatTy));
    }
}

bool floatBitsOnlyTested(const Instruction &Cast) {
  SmallVector<const Instruction *, 8> Work{&Cast};
  SmallPtrSet<const Instruction *, 8> Seen{&Cast};
  while (!Work.empty()) {
    const Instruction *I = Work.pop_back_val();
    for (const User *U : I->users()) {
      if (isa<ICmpInst, SwitchInst>(U))
        continue;
      auto *Bits = dyn_cast<Instruction>(U);
      bool Extracts =
          Bits &&
          (isa<TruncInst, ZExtInst, SExtInst, ExtractElementInst>(Bits) ||
           Bits->getOpcode() == Instruction::And ||
           Bits->getOpcode() == Instruction::LShr ||
           Bits->getOpcode() == Instruction::AShr ||
           Bits->getOpcode() == Instruction::Shl);
      if (!Extracts)
        return false;
      if (Seen.insert(Bits).second)
        Work.push_back(Bits);
    }
  }
  return true;
}

} // namespace capsule
