//===- MarkerOperands.cpp - Marker call operands in SSA form --------------===//
#include "Support/MarkerOperands.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace capsule {

/// Whether an operand is read from memory other than a global (a marker's
/// own), e.g. from a stack slot, or through a pointer kept in one.
static bool readsLocalMemory(const CallBase &Call) {
  return any_of(Call.args(), [](const Use &Operand) {
    auto *Load = dyn_cast<LoadInst>(Operand.get());
    return Load && !isa<GlobalValue>(getUnderlyingObject(Load->getOperand(0)));
  });
}

/// SROA leaves a tuple's fields as extracts of the aggregate it built from
/// them: the call gets the fields themselves.
static void forwardInsertedValues(CallBase &Call) {
  for (Use &Operand : Call.args())
    if (auto *Extract = dyn_cast<ExtractValueInst>(Operand.get()))
      if (Value *Field = FindInsertedValue(Extract->getAggregateOperand(),
                                           Extract->getIndices()))
        Operand.set(Field);
}

/// The call that computes the function operand of a marker call, when a
/// function defined here makes it: at -O0, a lambda's conversion to a
/// function pointer (`+[](double x) { ... }`) is such a call.
static CallBase *functionOperandCall(CallBase &Call) {
  unsigned Index = Call.paramHasAttr(0, Attribute::StructRet) ? 1 : 0;
  if (Call.arg_size() <= Index)
    return nullptr;
  auto *Computed = dyn_cast<CallBase>(Call.getArgOperand(Index));
  Function *Callee = Computed ? Computed->getCalledFunction() : nullptr;
  return Callee && !Callee->isDeclaration() ? Computed : nullptr;
}

/// SROA's own run, not through a pass manager: clang marks -O0 functions
/// optnone, which pass managers honour by skipping them.
static void promoteStackSlots(Function &F, FunctionAnalysisManager &FAM) {
  FAM.invalidate(F, SROAPass(SROAOptions::PreserveCFG).run(F, FAM));
}

/// Inlines the call computing \p Call's function operand, whose result
/// SROA then forwards.
static void inlineFunctionOperand(CallBase &Call,
                                  FunctionAnalysisManager &FAM) {
  CallBase *Computed = functionOperandCall(Call);
  InlineFunctionInfo IFI;
  if (!Computed || !InlineFunction(*Computed, IFI).isSuccess())
    return;
  FAM.invalidate(*Call.getFunction(), PreservedAnalyses::none());
  promoteStackSlots(*Call.getFunction(), FAM);
}

void promoteMarkerOperands(ArrayRef<CallBase *> Calls,
                           FunctionAnalysisManager &FAM) {
  SmallSetVector<Function *, 4> Callers;
  for (CallBase *Call : Calls)
    if (readsLocalMemory(*Call) || functionOperandCall(*Call))
      Callers.insert(Call->getFunction());
  for (Function *F : Callers)
    promoteStackSlots(*F, FAM);
  for (CallBase *Call : Calls) {
    if (!Callers.contains(Call->getFunction()))
      continue;
    forwardInsertedValues(*Call);
    inlineFunctionOperand(*Call, FAM);
    forwardInsertedValues(*Call);
  }
}

} // namespace capsule
