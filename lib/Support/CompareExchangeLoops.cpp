//===- CompareExchangeLoops.cpp - _Atomic float updates as atomicrmw ------===//
//
// clang compiles `x += v` on an `_Atomic double` (or float) into a loop: load
// x atomically, compute x + v, compare-exchange the bits, and retry from
// what the exchange found until it succeeds. That loop is exactly
// `atomicrmw fadd x, v` (or fsub), which the sweeps differentiate as an
// atomic accumulation; in its loop form the bits would be refused as a
// float read as an integer.
//===----------------------------------------------------------------------===//
#include "Support/CompareExchangeLoops.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace capsule {

namespace {

/// What an update adds to (or subtracts from) the variable: V, or the
/// product V * Factor (`x += a * b` contracted into fmuladd(a, b, x), which
/// may as well be computed unfused).
struct Change {
  AtomicRMWInst::BinOp Op;
  Value *V;
  Value *Factor = nullptr;
};

/// One compare-exchange loop computing an atomic floating-point update.
struct UpdateLoop {
  BasicBlock *Loop, *Entry, *Exit;
  LoadInst *Initial; // the load before the loop
  Instruction *Next; // the updated value
  Change By;
  AtomicCmpXchgInst *Exchange;
};

/// How \p Next changes \p Cur: `Cur + V`, `V + Cur`, `Cur - V` or
/// fmuladd(V, Factor, Cur), with V and Factor from outside \p Loop.
std::optional<Change> changeOf(Instruction &Next, PHINode &Cur,
                               BasicBlock &Loop) {
  auto Outside = [&](Value *X) {
    auto *I = dyn_cast<Instruction>(X);
    return X != &Cur && (!I || I->getParent() != &Loop);
  };
  Value *V, *Factor;
  if (match(&Next, m_FAdd(m_Specific(&Cur), m_Value(V))) ||
      match(&Next, m_FAdd(m_Value(V), m_Specific(&Cur))))
    return Outside(V) ? std::optional(Change{AtomicRMWInst::FAdd, V})
                      : std::nullopt;
  if (match(&Next, m_FSub(m_Specific(&Cur), m_Value(V))))
    return Outside(V) ? std::optional(Change{AtomicRMWInst::FSub, V})
                      : std::nullopt;
  if (match(&Next, m_Intrinsic<Intrinsic::fmuladd>(m_Value(V), m_Value(Factor),
                                                   m_Specific(&Cur))) &&
      Outside(V) && Outside(Factor))
    return Change{AtomicRMWInst::FAdd, V, Factor};
  return std::nullopt;
}

/// The update loop \p Exchange closes, if it is one: a block looping on
/// itself until the exchange succeeds, whose only phi carries the value
/// from a load before it to what each failed exchange found, and
/// whose values are used outside only for the updated value.
std::optional<UpdateLoop> updateLoopOf(AtomicCmpXchgInst &Exchange) {
  BasicBlock *Loop = Exchange.getParent();
  auto *Br = dyn_cast<BranchInst>(Loop->getTerminator());
  // Leave when the exchange succeeded, retry when it failed.
  if (!Br || !Br->isConditional() || Exchange.isVolatile() ||
      Br->getSuccessor(1) != Loop || Br->getSuccessor(0) == Loop ||
      !match(Br->getCondition(), m_ExtractValue<1>(m_Specific(&Exchange))))
    return std::nullopt;
  BasicBlock *Exit = Br->getSuccessor(0);
  if (!Exit->phis().empty())
    return std::nullopt;
  auto Phis = Loop->phis();
  if (std::distance(Phis.begin(), Phis.end()) != 1)
    return std::nullopt;
  PHINode &Cur = *Phis.begin();
  if (Cur.getNumIncomingValues() != 2 || !Cur.getType()->isFloatingPointTy())
    return std::nullopt;
  unsigned Back = Cur.getIncomingBlock(0) == Loop ? 0 : 1;
  BasicBlock *Entry = Cur.getIncomingBlock(1 - Back);
  if (Cur.getIncomingBlock(Back) != Loop || Entry == Loop ||
      Entry->getTerminator()->getNumSuccessors() != 1)
    return std::nullopt;
  auto *Initial = dyn_cast<LoadInst>(Cur.getIncomingValue(1 - Back));
  Value *Ptr = Exchange.getPointerOperand();
  if (!Initial || Initial->getPointerOperand() != Ptr ||
      !match(Cur.getIncomingValue(Back),
             m_BitCast(m_ExtractValue<0>(m_Specific(&Exchange)))) ||
      !match(Exchange.getCompareOperand(), m_BitCast(m_Specific(&Cur))))
    return std::nullopt;
  auto *NewBits = dyn_cast<BitCastInst>(Exchange.getNewValOperand());
  auto *Next =
      NewBits ? dyn_cast<Instruction>(NewBits->getOperand(0)) : nullptr;
  std::optional<Change> By = Next && Next->getParent() == Loop
                                 ? changeOf(*Next, Cur, *Loop)
                                 : std::nullopt;
  if (!By)
    return std::nullopt;
  // Nothing else happens in the loop, and only the updated value leaves it.
  for (Instruction &I : *Loop) {
    if (&I == Next)
      continue;
    for (User *U : I.users())
      if (cast<Instruction>(U)->getParent() != Loop)
        return std::nullopt;
    if (I.mayHaveSideEffects() && &I != &Exchange)
      return std::nullopt;
  }
  if (Initial->hasNUsesOrMore(2))
    return std::nullopt;
  return UpdateLoop{Loop, Entry, Exit, Initial, Next, *By, &Exchange};
}

/// Replaces \p U's loop by the atomicrmw it computes (and, where the
/// updated value is used after it, the old value plus the operand).
void replaceByAtomicUpdate(const UpdateLoop &U) {
  IRBuilder<> B(U.Entry->getTerminator());
  B.SetCurrentDebugLocation(U.Exchange->getDebugLoc());
  if (auto *FP = dyn_cast<FPMathOperator>(U.Next))
    B.setFastMathFlags(FP->getFastMathFlags());
  Value *V = U.By.Factor ? B.CreateFMul(U.By.V, U.By.Factor) : U.By.V;
  AtomicRMWInst *Update = B.CreateAtomicRMW(
      U.By.Op, U.Exchange->getPointerOperand(), V, U.Initial->getAlign(),
      U.Exchange->getSuccessOrdering(), U.Exchange->getSyncScopeID());
  if (any_of(U.Next->users(), [&](const User *X) {
        return cast<Instruction>(X)->getParent() != U.Loop;
      })) {
    Value *Result = U.By.Op == AtomicRMWInst::FAdd ? B.CreateFAdd(Update, V)
                                                   : B.CreateFSub(Update, V);
    U.Next->replaceUsesOutsideBlock(Result, U.Loop);
  }
  U.Entry->getTerminator()->setSuccessor(0, U.Exit);
  U.Initial->replaceAllUsesWith(PoisonValue::get(U.Initial->getType()));
  U.Initial->eraseFromParent();
  DeleteDeadBlock(U.Loop);
}

} // namespace

void lowerCompareExchangeUpdates(Function &F) {
  SmallVector<UpdateLoop, 2> Loops;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Exchange = dyn_cast<AtomicCmpXchgInst>(&I))
        if (std::optional<UpdateLoop> U = updateLoopOf(*Exchange))
          Loops.push_back(*U);
  for (const UpdateLoop &U : Loops)
    replaceByAtomicUpdate(U);
}

} // namespace capsule
