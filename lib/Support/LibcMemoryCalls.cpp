//===- LibcMemoryCalls.cpp - memcpy and kin called by name ----------------===//
#include "Support/LibcMemoryCalls.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace capsule {

namespace {

enum class MemoryCall { Copy, Move, Set };

struct NamedMemoryCall {
  MemoryCall Kind;
  bool Checked; // _FORTIFY_SOURCE's variant: a fourth argument, the size
};

std::optional<NamedMemoryCall> namedMemoryCall(const CallInst &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || !F->isDeclaration())
    return std::nullopt;
  auto Named =
      StringSwitch<std::optional<NamedMemoryCall>>(F->getName())
          .Case("memcpy", NamedMemoryCall{MemoryCall::Copy, false})
          .Case("memmove", NamedMemoryCall{MemoryCall::Move, false})
          .Case("memset", NamedMemoryCall{MemoryCall::Set, false})
          .Case("__memcpy_chk", NamedMemoryCall{MemoryCall::Copy, true})
          .Case("__memmove_chk", NamedMemoryCall{MemoryCall::Move, true})
          .Case("__memset_chk", NamedMemoryCall{MemoryCall::Set, true})
          .Default(std::nullopt);
  // The C library's signatures: (ptr, ptr or int, size[, size]) -> ptr.
  unsigned Args = Named && Named->Checked ? 4 : 3;
  if (!Named || Call.arg_size() != Args ||
      !Call.getArgOperand(0)->getType()->isPointerTy() ||
      !Call.getArgOperand(2)->getType()->isIntegerTy() ||
      (Named->Kind == MemoryCall::Set
           ? !Call.getArgOperand(1)->getType()->isIntegerTy()
           : !Call.getArgOperand(1)->getType()->isPointerTy()))
    return std::nullopt;
  return Named;
}

/// Before \p Call: glibc's check that the length fits the destination.
void keepCheck(CallInst &Call) {
  IRBuilder<> B(&Call);
  Value *Overflows =
      B.CreateICmpUGT(Call.getArgOperand(2), Call.getArgOperand(3));
  Instruction *Fail = SplitBlockAndInsertIfThen(Overflows, &Call,
                                                /*Unreachable=*/true);
  B.SetInsertPoint(Fail);
  Module &M = *Call.getModule();
  FunctionCallee ChkFail = M.getOrInsertFunction("__chk_fail", B.getVoidTy());
  cast<Function>(ChkFail.getCallee())->setDoesNotReturn();
  B.CreateCall(ChkFail)->setDebugLoc(Call.getDebugLoc());
}

void callIntrinsic(CallInst &Call, const NamedMemoryCall &Named) {
  if (Named.Checked)
    keepCheck(Call);
  IRBuilder<> B(&Call);
  Value *Dst = Call.getArgOperand(0), *Len = Call.getArgOperand(2);
  CallInst *Intrinsic = nullptr;
  switch (Named.Kind) {
  case MemoryCall::Copy:
    Intrinsic = B.CreateMemCpy(Dst, MaybeAlign(), Call.getArgOperand(1),
                               MaybeAlign(), Len);
    break;
  case MemoryCall::Move:
    Intrinsic = B.CreateMemMove(Dst, MaybeAlign(), Call.getArgOperand(1),
                                MaybeAlign(), Len);
    break;
  case MemoryCall::Set:
    Intrinsic =
        B.CreateMemSet(Dst, B.CreateTrunc(Call.getArgOperand(1), B.getInt8Ty()),
                       Len, MaybeAlign());
    break;
  }
  Intrinsic->setDebugLoc(Call.getDebugLoc());
  Call.replaceAllUsesWith(Dst); // they return the destination
  Call.eraseFromParent();
}

} // namespace

void callMemoryIntrinsics(Function &F) {
  SmallVector<std::pair<CallInst *, NamedMemoryCall>, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (std::optional<NamedMemoryCall> Named = namedMemoryCall(*Call))
        Calls.push_back({Call, *Named});
  for (auto &[Call, Named] : Calls)
    callIntrinsic(*Call, Named);
}

} // namespace capsule
