//===- AutodiffPass.cpp - Lowers gradient marker calls --------------------===//
#include "Reverse/AutodiffPass.h"

#include "Support/ApiNames.h"
#include "Support/CustomRules.h"

#include "Checkpoint/CheckpointedGradient.h"
#include "Forward/TangentRequests.h"

#include "Interrupt/JournalBarriers.h"
#include "Interrupt/TeamRegions.h"
#include "Reverse/CustomGradient.h"
#include "Reverse/Differentiator.h"
#include "Reverse/SplitGradient.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/Lanes.h"
#include "Support/LibraryBodies.h"
#include "Support/LinkTime.h"
#include "Support/MarkerCalls.h"
#include "Support/MarkerOperands.h"
#include "Support/MixedCopies.h"
#include "Support/NestingOrder.h"
#include "Support/OutOfLineLibraryCalls.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace capsule {

PreservedAnalyses ProtectMarkersPass::run(Module &M, ModuleAnalysisManager &) {
  // Before optimization can drop an unused registration or annotation, or
  // inline a function with a rule into its callers.
  refuseUnimplementedApi(M);
  notePreLinkCompile(M);
  readCustomRules(M);
  bool Changed = false;
  if (isPreLinkCompile(M)) {
    recordInlinableCalls(M);
    Changed = true;
  }
  for (GlobalVariable &G : M.globals())
    if (isActivityMarkerGlobal(G) && !G.isExternallyInitialized()) {
      G.setExternallyInitialized(true);
      Changed = true;
    }
  // Two marker calls in two branches must not be merged into one call
  // through a phi of function pointers.
  bool HasMarkerCalls = false;
  for (Function &F : M)
    if (markerKind(F) || runMarkerKind(F))
      for (User *U : F.users())
        if (auto *Call = dyn_cast<CallBase>(U)) {
          HasMarkerCalls = true;
          if (!Call->hasFnAttr(Attribute::NoMerge)) {
            Call->addFnAttr(Attribute::NoMerge);
            Changed = true;
          }
        }
  if (HasMarkerCalls)
    Changed |= keepLibraryCallsOutOfLine(M);
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

std::optional<GradientRequest> parseRequest(const MarkerCall &MC) {
  switch (MC.Kind) {
  case MarkerKind::Fwddiff:
    return parseTangentRequest(*MC.Call);
  case MarkerKind::AugmentFwd:
    return parseSplitRequest(*MC.Call, SplitHalf::Augment);
  case MarkerKind::Reverse:
    return parseSplitRequest(*MC.Call, SplitHalf::Reverse);
  case MarkerKind::Autodiff:
  case MarkerKind::AutodiffCheckpointed:
  case MarkerKind::AugmentSize:
    break;
  }
  return parseGradientRequest(*MC.Call);
}

/// The adjoints of \p R's out arguments as the marker returns them: in
/// vector mode each as an array of its lanes (lane k's adjoint first).
Value *adjointsAsArrays(IRBuilder<> &B, const GradientRequest &R,
                        Value *Adjoints) {
  unsigned Width = R.Sig.Width;
  if (Width == 1)
    return Adjoints;
  // The type the marker's declared result was checked against.
  FunctionType *FT = R.Sig.Fn->getFunctionType();
  Value *Result = PoisonValue::get(markerAdjointsType(FT, R.Sig.Args, Width));
  unsigned Index = 0;
  for (auto [K, Activity] : enumerate(R.Sig.Args))
    if (Activity == ArgActivity::Out) {
      Value *Lanes = B.CreateExtractValue(Adjoints, Index);
      Result = B.CreateInsertValue(
          Result, lanesAsArray(B, FT->getParamType(K), Lanes, Width), Index++);
    }
  return Result;
}

void lowerRequest(Differentiator &D, const GradientRequest &R) {
  RuntimeABI &ABI = D.abi();
  unsigned Width = R.Sig.Width;
  // A rule takes one shadow per argument, and runs once per lane only
  // where it touches no memory.
  if (Width > 1 && gradientRule(*R.Sig.Fn) &&
      !gradientRuleRunsPerLane(*R.Sig.Fn)) {
    reportUnsupported(*R.Call, *R.Call->getFunction(),
                      "vector mode (enzyme_width) in reverse mode of '" +
                          displayName(*R.Sig.Fn) +
                          "', which has a gradient rule and takes or returns "
                          "pointers or keeps a tape, is not supported yet");
    D.noteFailure();
    return;
  }
  Derivative Dv = D.get(R.Sig);
  IRBuilder<> B(R.Call);
  CallInst *Begin = B.CreateCall(ABI.gradientBegin());
  Differentiator::ShadowBinding SB = D.bindShadowGlobals(B, R);
  // A call inside another's sweeps (a custom rule's body) keeps the
  // enclosing call's shadow globals (runtime/abi.h).
  if (!R.Nested)
    D.keepShadowGlobals(*Begin, SB, ABI.gradientKeepGlobals(), {});
  SmallVector<Value *, 12> FwdArgs(R.Args.begin(), R.Args.end());
  FwdArgs.append(SB.Shadows.begin(), SB.Shadows.end());
  Value *Primal = B.CreateCall(Dv.Fwd, FwdArgs);
  if (Primal->getType() != R.Sig.Fn->getReturnType())
    Primal = B.CreateExtractValue(Primal, 0); // {result, its shadow}
  B.CreateCall(ABI.gradientForwardDone());
  // Every lane is seeded with 1, as Enzyme seeds an active result.
  SmallVector<Value *, 1> Seed;
  if (R.Sig.ActiveReturn)
    Seed.push_back(
        ConstantFP::get(laneType(R.Sig.Fn->getReturnType(), Width), 1.0));
  Value *Adjoints = B.CreateCall(Dv.Rev, Seed);
  D.unbindShadowGlobals(B, SB);
  B.CreateCall(ABI.gradientEnd());
  replaceMarkerResult(
      B, R,
      reverseMarkerResult(B, R, Primal, adjointsAsArrays(B, R, Adjoints)));
}

/// Adds the functions \p Requests differentiate, and all they reach.
void addDifferentiated(ArrayRef<GradientRequest> Requests,
                       SmallPtrSetImpl<const Function *> &Set) {
  for (const GradientRequest &R : Requests)
    addReachable(*R.Sig.Fn, Set);
}

/// Adds the functions that contain \p Requests' marker calls.
void addContaining(ArrayRef<GradientRequest> Requests,
                   SmallPtrSetImpl<const Function *> &Set) {
  for (const GradientRequest &R : Requests)
    Set.insert(R.Call->getFunction());
}

/// Takes from \p Pending the requests to lower now: those whose function
/// reaches no marker call still to be lowered (NestingOrder.h). When none
/// is (a marker inside the function it differentiates), all of them: the
/// generators then refuse the inner marker call by name. Checkpointed
/// gradients are lowered last: forward mode over one makes another
/// (Forward/CheckpointedTangents.cpp), reverse mode refuses it.
SmallVector<GradientRequest, 8>
takeInnermost(SmallVectorImpl<GradientRequest> &Pending) {
  SmallPtrSet<const Function *, 8> Containing;
  addContaining(Pending, Containing);
  SmallVector<GradientRequest, 8> Ready, Waiting;
  for (GradientRequest &R : Pending)
    (reachesAny(*R.Sig.Fn, Containing) ? Waiting : Ready)
        .push_back(std::move(R));
  if (Ready.empty())
    std::swap(Ready, Waiting);
  Pending = std::move(Waiting);
  return Ready;
}

/// Marks the requests inside code that another request differentiates.
/// Their derivatives run inside the outer one's with a binding of shadow
/// globals the outer derivative can follow (bindNestedShadowGlobals); vector
/// mode is refused there, and the call erased so that the outer derivative
/// does not meet it.
void markNested(Differentiator &D, SmallVectorImpl<GradientRequest> &Pending,
                ArrayRef<GradientRequest> Checkpointed,
                SmallPtrSetImpl<CallBase *> &Erased) {
  SmallPtrSet<const Function *, 16> Differentiated;
  addDifferentiated(Pending, Differentiated);
  addDifferentiated(Checkpointed, Differentiated);
  erase_if(Pending, [&](GradientRequest &R) {
    R.Nested = Differentiated.contains(R.Call->getFunction());
    if (!R.Nested || (R.Sig.Width == 1 && R.Split == SplitHalf::None))
      return false;
    reportUnsupported(*R.Call, *R.Call->getFunction(),
                      R.Split != SplitHalf::None
                          ? "split mode (__enzyme_augmentfwd, "
                            "__enzyme_reverse) inside differentiated code "
                            "(nested differentiation) is not supported yet"
                          : "vector mode (enzyme_width) inside differentiated "
                            "code (nested differentiation) is not supported "
                            "yet");
    D.noteFailure();
    Erased.insert(R.Call);
    eraseMarkerCall(*R.Call);
    return true;
  });
}

/// Whether a gradient of this round differentiates code that computes a
/// gradient (reverse over reverse): then the round's gradients push their
/// records on the outer tape, and the inner gradients keep theirs.
bool differentiatesGradients(
    ArrayRef<GradientRequest> Round,
    const SmallPtrSetImpl<const Function *> &ComputingGradients) {
  return any_of(Round, [&](const GradientRequest &R) {
    return !R.Sig.Tangent && reachesAny(*R.Sig.Fn, ComputingGradients);
  });
}

/// Split mode runs on the inner tape only: in a round of derivatives that
/// differentiate gradients (reverse over reverse), whose records go on the
/// outer tape, it is refused.
void refuseSplitOverGradients(Differentiator &D, const GradientRequest &R) {
  reportUnsupported(*R.Call, *R.Sig.Fn,
                    "split mode (__enzyme_augmentfwd, __enzyme_reverse) of "
                    "code that itself computes gradients is not supported "
                    "yet");
  D.noteFailure();
}

/// Checkpointed gradients make their functions interruptible, which the
/// runtime brackets and tapes of a lowered inner derivative are not: such
/// requests are refused and dropped.
void refuseCheckpointedOverNested(
    Differentiator &D, SmallVectorImpl<GradientRequest> &Checkpointed,
    const SmallPtrSetImpl<const Function *> &Differentiating) {
  erase_if(Checkpointed, [&](const GradientRequest &R) {
    if (!reachesAny(*R.Sig.Fn, Differentiating))
      return false;
    reportUnsupported(*R.Call, *R.Sig.Fn,
                      "a checkpointed gradient of code that itself calls a "
                      "derivative marker (nested differentiation) is not "
                      "supported yet");
    D.noteFailure();
    return true;
  });
}

/// CAPSULE_CHECKPOINT_ALL=1 in the compiler's environment compiles every
/// __capsule_autodiff call as __capsule_autodiff_checkpointed: a whole
/// program (or test suite) switches to checkpointed gradients unchanged.
bool checkpointEverything() {
  const char *Env = std::getenv("CAPSULE_CHECKPOINT_ALL");
  return Env && StringRef(Env) == "1";
}

/// Under CAPSULE_CHECKPOINT_ALL, the gradient calls made checkpointed by
/// the setting (not by their marker) that take part in nested
/// differentiation stay plain: those inside code another request
/// differentiates, and those whose function itself calls a marker. A
/// checkpointed gradient can be neither, and the setting must not turn a
/// program that works (a Hessian-vector product) into one that is refused.
void keepNestedGradientsPlain(
    SmallVectorImpl<GradientRequest> &Pending,
    SmallVectorImpl<GradientRequest> &MadeCheckpointed,
    ArrayRef<GradientRequest> Checkpointed) {
  if (MadeCheckpointed.empty())
    return;
  SmallPtrSet<const Function *, 16> Differentiated, Containing;
  for (ArrayRef<GradientRequest> Requests :
       {ArrayRef<GradientRequest>(Pending),
        ArrayRef<GradientRequest>(MadeCheckpointed), Checkpointed}) {
    addDifferentiated(Requests, Differentiated);
    addContaining(Requests, Containing);
  }
  erase_if(MadeCheckpointed, [&](GradientRequest &R) {
    if (!Differentiated.contains(R.Call->getFunction()) &&
        !reachesAny(*R.Sig.Fn, Containing))
      return false;
    Pending.push_back(std::move(R));
    return true;
  });
}

} // namespace

PreservedAnalyses AutodiffPass::run(Module &M, ModuleAnalysisManager &MAM) {
  // When run alone (opt -passes=capsule).
  refuseUnimplementedApi(M);
  // At the link, before the rules are read: what the compile added for
  // the link goes first.
  if (!isPreLinkCompile(M))
    enterLinkTime(M);
  readCustomRules(M);
  SmallVector<MarkerCall, 8> Calls = findMarkerCalls(M);
  // Compiled with -flto: the functions may be in other files.
  if (deferToLink(M, !Calls.empty()))
    return PreservedAnalyses::none();
  if (Calls.empty())
    return PreservedAnalyses::all();
  supplyLibraryBodies(M);
  splitMixedCopies(M);

  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  promoteMarkerOperands(
      to_vector(map_range(Calls, [](MarkerCall &MC) { return MC.Call; })), FAM);
  Differentiator D(M, FAM);
  SmallVector<GradientRequest, 8> Pending, Checkpointed, MadeCheckpointed;
  SmallPtrSet<CallBase *, 8> Erased;
  bool AllCheckpointed = checkpointEverything();
  // Sizes first: a split call's enzyme_allocated operand may be one.
  for (MarkerCall &MC : Calls)
    if (MC.Kind == MarkerKind::AugmentSize) {
      if (parseAugmentSize(*MC.Call))
        lowerAugmentSize(*MC.Call);
      Erased.insert(MC.Call);
      eraseMarkerCall(*MC.Call);
    }
  for (MarkerCall &MC : Calls) {
    if (Erased.contains(MC.Call))
      continue;
    std::optional<GradientRequest> R = parseRequest(MC);
    // Reported; gone before a derivative of its function meets it again.
    if (!R) {
      Erased.insert(MC.Call);
      eraseMarkerCall(*MC.Call);
      continue;
    }
    if (MC.Kind == MarkerKind::AutodiffCheckpointed)
      Checkpointed.push_back(std::move(*R));
    else if (MC.Kind == MarkerKind::Autodiff && AllCheckpointed &&
             R->Sig.Width == 1)
      MadeCheckpointed.push_back(std::move(*R));
    else
      Pending.push_back(std::move(*R));
  }
  keepNestedGradientsPlain(Pending, MadeCheckpointed, Checkpointed);
  Checkpointed.append(std::make_move_iterator(MadeCheckpointed.begin()),
                      std::make_move_iterator(MadeCheckpointed.end()));
  markNested(D, Pending, Checkpointed, Erased);
  SmallPtrSet<const Function *, 8> Differentiating, ComputingGradients;
  // Each round's derivatives get shadow globals of their own: a round's
  // run inside the next one's (DiffSignature::Level).
  for (unsigned Round = 0; !Pending.empty(); ++Round) {
    SmallVector<GradientRequest, 8> Ready = takeInnermost(Pending);
    bool OnOuterTape = differentiatesGradients(Ready, ComputingGradients);
    D.abi().useTape(OnOuterTape ? TapeLevel::Outer : TapeLevel::Inner);
    for (GradientRequest &R : Ready) {
      R.Sig.Level = Round;
      D.get(R.Sig);
    }
    D.run();
    for (GradientRequest &R : Ready) {
      SmallPtrSet<CallInst *, 16> Before = callsBeforeLowering(*R.Call);
      if (R.Sig.Tangent)
        lowerTangentRequest(D, R);
      else if (R.Split != SplitHalf::None && OnOuterTape)
        refuseSplitOverGradients(D, R);
      else if (R.Split == SplitHalf::Augment)
        lowerAugmentRequest(D, R);
      else if (R.Split == SplitHalf::Reverse)
        lowerReverseRequest(D, R);
      else
        lowerRequest(D, R);
      routeThrowsToUnwind(*R.Call, Before);
      Differentiating.insert(R.Call->getFunction());
      if (!R.Sig.Tangent)
        ComputingGradients.insert(R.Call->getFunction());
      Erased.insert(R.Call);
      eraseMarkerCall(*R.Call);
    }
  }
  D.abi().useTape(TapeLevel::Inner);
  refuseCheckpointedOverNested(D, Checkpointed, Differentiating);
  // Forward mode over checkpointed gradients asked for checkpointed
  // gradients of tangent functions, from calls that stand in generated code.
  std::vector<GradientRequest> OfTangents = D.takeCheckpointedRequests();
  Checkpointed.append(OfTangents.begin(), OfTangents.end());
  CheckpointedGradients CG(D);
  bool CheckpointedOk = CG.prepare(Checkpointed);
  D.run();
  if (CheckpointedOk)
    for (GradientRequest &R : Checkpointed) {
      SmallPtrSet<CallInst *, 16> Before = callsBeforeLowering(*R.Call);
      IRBuilder<> B(R.Call);
      replaceMarkerResult(B, R, CG.lower(R));
      routeThrowsToUnwind(*R.Call, Before);
    }
  for (MarkerCall &MC : Calls)
    if (!Erased.contains(MC.Call))
      eraseMarkerCall(*MC.Call);
  for (GradientRequest &R : OfTangents)
    eraseMarkerCall(*R.Call);

  D.finish();
  forkParallelRegions(M);
  expandJournalBarriers(M, D.abi(), Cleanup.has_value());
  verifyGenerated(M);
  if (Cleanup)
    cleanUpGenerated(M, *Cleanup, FAM);
  return PreservedAnalyses::none();
}

} // namespace capsule
