//===- LibmPointerOutputs.cpp - libm results written through pointers -----===//
#include "Support/LibmPointerOutputs.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace capsule {

namespace {

enum class PointerOutput { None, SinCos, Modf, IntegerCopy };

/// Which rewrite a call of \p Name needs, and which argument is the integer
/// output for IntegerCopy.
std::pair<PointerOutput, unsigned> pointerOutputOf(StringRef Name) {
  using P = std::pair<PointerOutput, unsigned>;
  return StringSwitch<P>(Name)
      .Cases("sincos", "sincosf", {PointerOutput::SinCos, 1})
      .Cases("modf", "modff", {PointerOutput::Modf, 1})
      .Cases("frexp", "frexpf", {PointerOutput::IntegerCopy, 1})
      .Cases("lgamma_r", "lgammaf_r", {PointerOutput::IntegerCopy, 1})
      .Cases("remquo", "remquof", {PointerOutput::IntegerCopy, 2})
      .Default({PointerOutput::None, 0});
}

/// A stack slot in \p F's entry block for a call's private output.
AllocaInst *outputSlot(Function &F, Type *Ty) {
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  return B.CreateAlloca(Ty, nullptr, "capsule.libm.out");
}

void splitSinCos(CallInst &Call) {
  IRBuilder<> B(&Call);
  Value *X = Call.getArgOperand(0);
  B.CreateStore(B.CreateUnaryIntrinsic(Intrinsic::sin, X),
                Call.getArgOperand(1));
  B.CreateStore(B.CreateUnaryIntrinsic(Intrinsic::cos, X),
                Call.getArgOperand(2));
  Call.eraseFromParent();
}

/// The integral part is trunc(x) exactly (modf's definition), so storing it
/// gives the memory the same value with the derivative 0.
void separateModf(CallInst &Call) {
  Value *Integral = Call.getArgOperand(1);
  Type *Ty = Call.getType();
  Call.setArgOperand(1, outputSlot(*Call.getFunction(), Ty));
  IRBuilder<> B(Call.getNextNode());
  B.CreateStore(B.CreateUnaryIntrinsic(Intrinsic::trunc, Call.getArgOperand(0)),
                Integral);
}

void separateIntegerOutput(CallInst &Call, unsigned ArgNo) {
  Value *Out = Call.getArgOperand(ArgNo);
  Type *IntTy = Type::getInt32Ty(Call.getContext());
  AllocaInst *Slot = outputSlot(*Call.getFunction(), IntTy);
  Call.setArgOperand(ArgNo, Slot);
  IRBuilder<> B(Call.getNextNode());
  B.CreateStore(B.CreateLoad(IntTy, Slot), Out);
}

} // namespace

void separateLibmPointerOutputs(Function &F) {
  SmallVector<std::pair<CallInst *, std::pair<PointerOutput, unsigned>>, 4>
      Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (Callee->isDeclaration()) {
            auto Output = pointerOutputOf(Callee->getName());
            if (Output.first != PointerOutput::None &&
                Call->arg_size() > Output.second &&
                Call->getArgOperand(Output.second)->getType()->isPointerTy())
              Calls.push_back({Call, Output});
          }
  for (auto &[Call, Output] : Calls) {
    switch (Output.first) {
    case PointerOutput::SinCos:
      splitSinCos(*Call);
      break;
    case PointerOutput::Modf:
      separateModf(*Call);
      break;
    case PointerOutput::IntegerCopy:
      separateIntegerOutput(*Call, Output.second);
      break;
    case PointerOutput::None:
      break;
    }
  }
}

} // namespace capsule
