//===- X86VectorOps.cpp - x86 SIMD operations as generic IR ---------------===//
#include "Support/X86VectorOps.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"

using namespace llvm;

namespace capsule {

namespace {

/// x86's MAXPD dest, src is dest > src ? dest : src in every lane (src
/// where they are unordered or both zero); MINPD the same with <.
Value *x86MinMax(IRBuilder<> &B, bool Max, Value *Dest, Value *Src) {
  Value *Keep = Max ? B.CreateFCmpOGT(Dest, Src) : B.CreateFCmpOLT(Dest, Src);
  return B.CreateSelect(Keep, Dest, Src);
}

/// Horizontal addition or subtraction: lane pairs of each operand, in
/// 128-bit halves: (a0 op a1, b0 op b1) for two doubles; for an AVX pair of
/// halves (a0 op a1, b0 op b1, a2 op a3, b2 op b3).
Value *horizontal(IRBuilder<> &B, bool Add, Value *A, Value *C) {
  auto *VTy = cast<FixedVectorType>(A->getType());
  unsigned Lanes = VTy->getNumElements();
  unsigned PerHalf = 128 / VTy->getScalarSizeInBits();
  SmallVector<int, 8> Even, Odd;
  for (unsigned Half = 0; Half < Lanes / PerHalf; ++Half)
    for (unsigned Source = 0; Source < 2; ++Source)
      for (unsigned K = 0; K < PerHalf / 2; ++K) {
        int Lane = Source * Lanes + Half * PerHalf + 2 * K;
        Even.push_back(Lane);
        Odd.push_back(Lane + 1);
      }
  Value *Left = B.CreateShuffleVector(A, C, Even);
  Value *Right = B.CreateShuffleVector(A, C, Odd);
  return Add ? B.CreateFAdd(Left, Right) : B.CreateFSub(Left, Right);
}

/// Alternating subtraction and addition (SSE3's addsub, used for complex
/// and quaternion products): a - b in the even lanes, a + b in the odd.
Value *addSubtract(IRBuilder<> &B, Value *A, Value *C) {
  unsigned Lanes = cast<FixedVectorType>(A->getType())->getNumElements();
  SmallVector<int, 8> Alternate;
  for (unsigned K = 0; K < Lanes; ++K)
    Alternate.push_back(K % 2 ? Lanes + K : K);
  return B.CreateShuffleVector(B.CreateFSub(A, C), B.CreateFAdd(A, C),
                               Alternate);
}

/// A reduction by maxnum or minnum as a tree over the lanes.
Value *reduceTree(IRBuilder<> &B, Intrinsic::ID Combine, Value *V) {
  auto *VTy = cast<FixedVectorType>(V->getType());
  SmallVector<Value *, 8> Lanes;
  for (unsigned K = 0; K < VTy->getNumElements(); ++K)
    Lanes.push_back(B.CreateExtractElement(V, K));
  while (Lanes.size() > 1) {
    SmallVector<Value *, 8> Next;
    for (unsigned K = 0; K + 1 < Lanes.size(); K += 2)
      Next.push_back(B.CreateBinaryIntrinsic(Combine, Lanes[K], Lanes[K + 1]));
    if (Lanes.size() % 2)
      Next.push_back(Lanes.back());
    Lanes = Next;
  }
  return Lanes.front();
}

/// \p Start combined with each lane of \p V in turn by \p Opcode, with
/// \p Call's fast-math flags: an ordered reduction's own order, and one of
/// the orders a reassociating one may take.
Value *reduceInOrder(IRBuilder<> &B, Instruction::BinaryOps Opcode,
                     Value *Start, Value *V, const IntrinsicInst &Call) {
  auto *VTy = cast<FixedVectorType>(V->getType());
  IRBuilder<>::FastMathFlagGuard Guard(B);
  B.setFastMathFlags(Call.getFastMathFlags());
  Value *Sum = Start;
  for (unsigned K = 0; K < VTy->getNumElements(); ++K)
    Sum = B.CreateBinOp(Opcode, Sum, B.CreateExtractElement(V, K));
  return Sum;
}

/// The generic form of x86 intrinsic call \p Call, or null.
Value *lowerIntrinsic(IRBuilder<> &B, IntrinsicInst &Call) {
  auto Arg = [&](unsigned K) { return Call.getArgOperand(K); };
  switch (Call.getIntrinsicID()) {
  case Intrinsic::x86_sse2_max_pd:
  case Intrinsic::x86_sse_max_ps:
  case Intrinsic::x86_avx_max_pd_256:
  case Intrinsic::x86_avx_max_ps_256:
  case Intrinsic::x86_avx512_max_pd_512: // (its third operand: rounding)
  case Intrinsic::x86_avx512_max_ps_512:
    return x86MinMax(B, /*Max=*/true, Arg(0), Arg(1));
  case Intrinsic::x86_sse2_min_pd:
  case Intrinsic::x86_sse_min_ps:
  case Intrinsic::x86_avx_min_pd_256:
  case Intrinsic::x86_avx_min_ps_256:
  case Intrinsic::x86_avx512_min_pd_512:
  case Intrinsic::x86_avx512_min_ps_512:
    return x86MinMax(B, /*Max=*/false, Arg(0), Arg(1));
  case Intrinsic::x86_sse3_hadd_pd:
  case Intrinsic::x86_sse3_hadd_ps:
  case Intrinsic::x86_avx_hadd_pd_256:
  case Intrinsic::x86_avx_hadd_ps_256:
    return horizontal(B, /*Add=*/true, Arg(0), Arg(1));
  case Intrinsic::x86_sse3_hsub_pd:
  case Intrinsic::x86_sse3_hsub_ps:
  case Intrinsic::x86_avx_hsub_pd_256:
  case Intrinsic::x86_avx_hsub_ps_256:
    return horizontal(B, /*Add=*/false, Arg(0), Arg(1));
  case Intrinsic::x86_sse3_addsub_pd:
  case Intrinsic::x86_sse3_addsub_ps:
  case Intrinsic::x86_avx_addsub_pd_256:
  case Intrinsic::x86_avx_addsub_ps_256:
    return addSubtract(B, Arg(0), Arg(1));
  case Intrinsic::vector_reduce_fmax:
    return reduceTree(B, Intrinsic::maxnum, Arg(0));
  case Intrinsic::vector_reduce_fmin:
    return reduceTree(B, Intrinsic::minnum, Arg(0));
  case Intrinsic::vector_reduce_fmaximum:
    return reduceTree(B, Intrinsic::maximum, Arg(0));
  case Intrinsic::vector_reduce_fminimum:
    return reduceTree(B, Intrinsic::minimum, Arg(0));
  case Intrinsic::vector_reduce_fadd:
    return reduceInOrder(B, Instruction::FAdd, Arg(0), Arg(1), Call);
  case Intrinsic::vector_reduce_fmul:
    return reduceInOrder(B, Instruction::FMul, Arg(0), Arg(1), Call);
  default:
    return nullptr;
  }
}

/// Eigen's pmadd with FMA in inline assembly: "vfmadd231pd $1, $2, $0",
/// the result tied to the third operand: dest = first * second + dest.
Value *lowerInlineFma(IRBuilder<> &B, CallInst &Call, StringRef Text,
                      StringRef Constraints) {
  StringRef Op = Text.take_until([](char C) { return C == ' '; });
  if (Call.arg_size() != 3 || !Constraints.starts_with("=x,x,x,0") ||
      !Text.ends_with(" $1, $2, $0") ||
      !is_contained(
          {"vfmadd231pd", "vfmadd231ps", "vfmadd231sd", "vfmadd231ss"}, Op))
    return nullptr;
  return B.CreateIntrinsic(
      Intrinsic::fma, {Call.getType()},
      {Call.getArgOperand(0), Call.getArgOperand(1), Call.getArgOperand(2)});
}

/// Eigen's pmin and pmax in inline assembly: "maxpd $1, $0" with the
/// result tied to the second operand (dest = max(dest, src) with dest the
/// second argument), or AVX's three-operand "vmaxpd $1, $2, $0" (dest =
/// max(second, first)). Either way second > first ? second : first.
Value *lowerInlineAsm(IRBuilder<> &B, CallInst &Call) {
  auto *Asm = cast<InlineAsm>(Call.getCalledOperand());
  StringRef Text = Asm->getAsmString();
  StringRef Constraints = Asm->getConstraintString();
  if (!Call.getType()->isFPOrFPVectorTy())
    return nullptr;
  if (Call.arg_size() == 3)
    return lowerInlineFma(B, Call, Text, Constraints);
  if (Call.arg_size() != 2)
    return nullptr;
  bool TwoOperand =
      Constraints.starts_with("=x,x,0") && (Text.ends_with(" $1, $0"));
  bool ThreeOperand =
      Constraints.starts_with("=x,x,x") && Text.ends_with(" $1, $2, $0");
  if (!TwoOperand && !ThreeOperand)
    return nullptr;
  StringRef Op = Text.take_until([](char C) { return C == ' '; });
  Op.consume_front("v");
  std::optional<bool> Max = StringSwitch<std::optional<bool>>(Op)
                                .Cases("maxpd", "maxps", true)
                                .Cases("minpd", "minps", false)
                                .Default(std::nullopt);
  if (!Max)
    return nullptr;
  return x86MinMax(B, *Max, Call.getArgOperand(1), Call.getArgOperand(0));
}

} // namespace

void lowerX86VectorOps(Function &F) {
  SmallVector<CallInst *, 8> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (isa<IntrinsicInst>(Call) || Call->isInlineAsm())
          Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    IRBuilder<> B(Call);
    auto *Intr = dyn_cast<IntrinsicInst>(Call);
    Value *Generic = Intr ? lowerIntrinsic(B, *Intr) : lowerInlineAsm(B, *Call);
    if (!Generic)
      continue;
    Call->replaceAllUsesWith(Generic);
    Call->eraseFromParent();
  }
}

} // namespace capsule
