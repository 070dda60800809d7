//===- UnprototypedCalls.cpp - Calls through K&R function pointers --------===//
#include "Support/UnprototypedCalls.h"

#include "Analysis/CallClassifier.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

/// \p FT without its `...`.
static FunctionType *prototypedType(FunctionType &FT) {
  return FunctionType::get(FT.getReturnType(), FT.params(),
                           /*isVarArg=*/false);
}

/// Whether \p Call, of a variadic type and with nothing in its `...`, calls
/// through a pointer declared without a prototype: the module's functions
/// whose address is taken include some of the arguments' types and none of
/// the variadic type itself (a pointer to a variadic function, called with
/// only its named arguments, is left as it is).
static bool callsUnprototypedPointer(CallBase &Call) {
  FunctionType *FT = Call.getFunctionType();
  if (Call.getCalledFunction() || Call.isInlineAsm() || !FT->isVarArg() ||
      Call.arg_size() != FT->getNumParams())
    return false;
  Module &M = *Call.getModule();
  return indirectCallTargets(M, FT, /*IncludeDeclarations=*/true).empty() &&
         !indirectCallTargets(M, prototypedType(*FT),
                              /*IncludeDeclarations=*/true)
              .empty();
}

void callUnprototypedPointersByArguments(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && callsUnprototypedPointer(*Call))
      // The x86-64 ABI passes a variadic call's named arguments as it
      // passes a prototyped call's; only %al (an upper bound on the vector
      // registers used, which a function without `...` ignores) differs.
      Call->mutateFunctionType(prototypedType(*Call->getFunctionType()));
}

} // namespace capsule
