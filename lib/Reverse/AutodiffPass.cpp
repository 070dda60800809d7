//===- AutodiffPass.cpp - Lowers gradient marker calls --------------------===//
#include "Reverse/AutodiffPass.h"

#include "Support/ApiNames.h"

#include "Checkpoint/CheckpointedGradient.h"
#include "Forward/TangentRequests.h"

#include "Interrupt/JournalBarriers.h"
#include "Reverse/Differentiator.h"
#include "Support/GeneratedCode.h"
#include "Support/MarkerCalls.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace capsule {

PreservedAnalyses ProtectMarkersPass::run(Module &M, ModuleAnalysisManager &) {
  // Before optimization can drop an unused registration or annotation.
  refuseUnimplementedApi(M);
  bool Changed = false;
  for (GlobalVariable &G : M.globals())
    if (isActivityMarkerGlobal(G) && !G.isExternallyInitialized()) {
      G.setExternallyInitialized(true);
      Changed = true;
    }
  // Two marker calls in two branches must not be merged into one call
  // through a phi of function pointers.
  for (Function &F : M)
    if (markerKind(F) || runMarkerKind(F))
      for (User *U : F.users())
        if (auto *Call = dyn_cast<CallBase>(U))
          if (!Call->hasFnAttr(Attribute::NoMerge)) {
            Call->addFnAttr(Attribute::NoMerge);
            Changed = true;
          }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

namespace {

struct MarkerCall {
  CallBase *Call;
  MarkerKind Kind;
};

SmallVector<MarkerCall, 8> findMarkerCalls(Module &M) {
  SmallVector<MarkerCall, 8> Calls;
  for (Function &F : M) {
    std::optional<MarkerKind> Kind = markerKind(F);
    if (Kind && F.isDeclaration())
      for (CallBase *Call : callsTo(F))
        Calls.push_back({Call, *Kind});
  }
  return Calls;
}

/// Hands the adjoints of the out arguments (a struct, one field per out
/// argument) to the caller in the form the parser checked: nothing, one
/// value, the sret slot, or the ABI's coerced register type, which is read
/// back from the struct's memory image.
Value *packResult(IRBuilder<> &B, const GradientRequest &R, Value *Adjoints) {
  Type *RetTy = R.Call->getType();
  if (R.ResultSlot) {
    B.CreateStore(Adjoints, R.ResultSlot);
    return nullptr;
  }
  if (RetTy->isVoidTy())
    return nullptr;
  if (RetTy->isFloatingPointTy())
    return Adjoints->getType()->getStructNumElements()
               ? B.CreateFPCast(B.CreateExtractValue(Adjoints, 0), RetTy)
               : ConstantFP::get(RetTy, 0.0);
  Function *Caller = B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&Caller->getEntryBlock(),
                    Caller->getEntryBlock().getFirstInsertionPt());
  AllocaInst *Image = Entry.CreateAlloca(Adjoints->getType());
  B.CreateStore(Adjoints, Image);
  return B.CreateLoad(RetTy, Image);
}

void lowerRequest(Differentiator &D, const GradientRequest &R) {
  CallBase &Call = *R.Call;
  RuntimeABI &ABI = D.abi();
  Derivative Dv = D.get(R.Sig);
  IRBuilder<> B(&Call);
  B.CreateCall(ABI.gradientBegin());
  Differentiator::ShadowBinding SB =
      D.bindShadowGlobals(B, dupArguments(R), R.Shadows);
  SmallVector<Value *, 12> FwdArgs(R.Args.begin(), R.Args.end());
  FwdArgs.append(SB.Shadows.begin(), SB.Shadows.end());
  B.CreateCall(Dv.Fwd, FwdArgs);
  B.CreateCall(ABI.gradientForwardDone());
  SmallVector<Value *, 1> Seed;
  if (R.Sig.ActiveReturn)
    Seed.push_back(ConstantFP::get(R.Sig.Fn->getReturnType(), 1.0));
  Value *Adjoints = B.CreateCall(Dv.Rev, Seed);
  D.unbindShadowGlobals(B, SB);
  B.CreateCall(ABI.gradientEnd());
  if (Value *Result = packResult(B, R, Adjoints))
    Call.replaceAllUsesWith(Result);
}

/// CAPSULE_CHECKPOINT_ALL=1 in the compiler's environment compiles every
/// __capsule_autodiff call as __capsule_autodiff_checkpointed: a whole
/// program (or test suite) switches to checkpointed gradients unchanged.
bool checkpointEverything() {
  const char *Env = std::getenv("CAPSULE_CHECKPOINT_ALL");
  return Env && StringRef(Env) == "1";
}

} // namespace

PreservedAnalyses AutodiffPass::run(Module &M, ModuleAnalysisManager &MAM) {
  refuseUnimplementedApi(M); // when run alone (opt -passes=capsule)
  SmallVector<MarkerCall, 8> Calls = findMarkerCalls(M);
  if (Calls.empty())
    return PreservedAnalyses::all();

  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  Differentiator D(M, FAM);
  SmallVector<GradientRequest, 8> Plain, Checkpointed, Tangent;
  bool AllCheckpointed = checkpointEverything();
  for (MarkerCall &MC : Calls) {
    if (MC.Kind == MarkerKind::Fwddiff) {
      if (std::optional<GradientRequest> R = parseTangentRequest(*MC.Call))
        Tangent.push_back(std::move(*R));
      continue;
    }
    if (std::optional<GradientRequest> R = parseGradientRequest(*MC.Call))
      (MC.Kind == MarkerKind::Autodiff && !AllCheckpointed ? Plain
                                                           : Checkpointed)
          .push_back(std::move(*R));
  }
  for (GradientRequest &R : Plain)
    D.get(R.Sig);
  for (GradientRequest &R : Tangent)
    D.get(R.Sig);
  CheckpointedGradients CG(D);
  bool CheckpointedOk = CG.prepare(Checkpointed);
  D.run();
  for (GradientRequest &R : Plain)
    lowerRequest(D, R);
  for (GradientRequest &R : Tangent)
    lowerTangentRequest(D, R);
  if (CheckpointedOk)
    for (GradientRequest &R : Checkpointed) {
      IRBuilder<> B(R.Call);
      if (Value *Result = packResult(B, R, CG.lower(R)))
        R.Call->replaceAllUsesWith(Result);
    }
  for (MarkerCall &MC : Calls)
    eraseMarkerCall(*MC.Call);

  D.finish();
  expandJournalBarriers(M, D.abi());
  verifyGenerated(M);
  if (Cleanup)
    cleanUpGenerated(M, *Cleanup, FAM);
  return PreservedAnalyses::none();
}

} // namespace capsule
