//===- SignBitMasks.cpp - Sign-bit arithmetic on floating-point bits ------===//
#include "Support/SignBitMasks.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace capsule {

namespace {

enum class SignOp { None, Abs, Negate, NegativeAbs };

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

/// What \p BO does to the sign bits of the floating-point numbers whose
/// bits its operand 0 or 1 holds; the other operand is the mask.
SignOp signOpOf(BinaryOperator &BO, Value *&Bits) {
  const DataLayout &DL = BO.getDataLayout();
  unsigned Width = BO.getType()->getScalarSizeInBits();
  if (Width != 32 && Width != 64)
    return SignOp::None;
  APInt Sign = APInt::getSignMask(Width);
  for (unsigned K = 0; K < 2; ++K) {
    Constant *Mask = foldedConstant(BO.getOperand(1 - K), DL);
    if (Mask && Mask->getType()->isVectorTy())
      Mask = Mask->getSplatValue();
    auto *M = dyn_cast_or_null<ConstantInt>(Mask);
    if (!M)
      continue;
    Bits = BO.getOperand(K);
    const APInt &Value = M->getValue();
    if (BO.getOpcode() == Instruction::And && Value == ~Sign)
      return SignOp::Abs;
    if (BO.getOpcode() == Instruction::Xor && Value == Sign)
      return SignOp::Negate;
    if (BO.getOpcode() == Instruction::Or && Value == Sign)
      return SignOp::NegativeAbs;
  }
  return SignOp::None;
}

/// The floating-point type all of \p BO's users read its bits back as,
/// with elements as wide as its own; null if some user does otherwise.
Type *readBackType(BinaryOperator &BO) {
  Type *Read = nullptr;
  for (User *U : BO.users()) {
    auto *Cast = dyn_cast<BitCastInst>(U);
    if (!Cast || !Cast->getType()->isFPOrFPVectorTy() ||
        Cast->getType()->getScalarSizeInBits() !=
            BO.getType()->getScalarSizeInBits() ||
        (Read && Read != Cast->getType()))
      return nullptr;
    Read = Cast->getType();
  }
  return Read;
}

void rewrite(BinaryOperator &BO, SignOp Op, Value *Bits, Type *FloatTy) {
  IRBuilder<> B(&BO);
  auto *Cast = dyn_cast<BitCastInst>(Bits);
  Value *X = Cast && Cast->getSrcTy() == FloatTy
                 ? Cast->getOperand(0)
                 : B.CreateBitCast(Bits, FloatTy);
  Value *Result;
  if (Op == SignOp::Negate)
    Result = B.CreateFNeg(X);
  else {
    Result = B.CreateUnaryIntrinsic(Intrinsic::fabs, X);
    if (Op == SignOp::NegativeAbs)
      Result = B.CreateFNeg(Result);
  }
  for (User *U : make_early_inc_range(BO.users())) {
    U->replaceAllUsesWith(Result);
    cast<Instruction>(U)->eraseFromParent();
  }
  BO.eraseFromParent();
  // A bitcast of the value to bits left unused would still read as the
  // value reinterpreted as bits.
  if (Cast && Cast->use_empty())
    Cast->eraseFromParent();
}

} // namespace

void rewriteSignBitMasks(Function &F) {
  SmallVector<std::tuple<BinaryOperator *, SignOp, Value *, Type *>, 4> Found;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *BO = dyn_cast<BinaryOperator>(&I);
      if (!BO || !BO->getType()->isIntOrIntVectorTy() || BO->use_empty())
        continue;
      Value *Bits = nullptr;
      SignOp Op = signOpOf(*BO, Bits);
      if (Op == SignOp::None)
        continue;
      if (Type *FloatTy = readBackType(*BO))
        Found.push_back({BO, Op, Bits, FloatTy});
    }
  for (auto &[BO, Op, Bits, FloatTy] : Found)
    rewrite(*BO, Op, Bits, FloatTy);
}

} // namespace capsule
