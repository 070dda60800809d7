//===- InterruptPass.cpp - Lowers interruptible-execution markers ---------===//
//
// Makes the functions named by __capsule_primops / __capsule_interrupt
// calls (the roots) interruptible (InterruptibleBuilder) and replaces the
// marker calls by the runtime driver's entry points.
//===----------------------------------------------------------------------===//
#include "Interrupt/InterruptPass.h"

#include "Interrupt/InterruptibleBuilder.h"
#include "Interrupt/JournalBarriers.h"
#include "Interrupt/ResumableSplitter.h"
#include "Interrupt/TeamRegions.h"
#include "Support/GeneratedCode.h"
#include "Support/LibraryBodies.h"
#include "Support/LinkTime.h"
#include "Support/MarkerCalls.h"
#include "Support/RuntimeABI.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

using RunCall = std::pair<CallBase *, RunMarkerKind>;

SmallVector<RunCall, 8> findRunMarkerCalls(Module &M) {
  SmallVector<RunCall, 8> Calls;
  for (Function &F : M) {
    std::optional<RunMarkerKind> Kind = runMarkerKind(F);
    if (Kind && F.isDeclaration())
      for (CallBase *Call : callsTo(F))
        Calls.push_back({Call, *Kind});
  }
  return Calls;
}

} // namespace

/// The marker call becomes: take the root frame, store the arguments in
/// it, run the driver.
static void lowerRunRequest(const RunRequest &R, const InterruptibleRoot &Root,
                            RuntimeABI &ABI) {
  IRBuilder<> B(R.Call);
  Value *Frame = emitRootFrame(B, ABI, Root, *R.Fn, R.Args);
  GlobalVariable *Entry = Root.Entry;
  Value *Result =
      R.Kind == RunMarkerKind::Primops
          ? B.CreateCall(ABI.runPrimops(), {Entry, Frame})
          : B.CreateCall(ABI.runInterrupt(), {Entry, Frame, R.Limit});
  R.Call->replaceAllUsesWith(Result);
}

PreservedAnalyses InterruptPass::run(Module &M, ModuleAnalysisManager &MAM) {
  SmallVector<RunCall, 8> Calls = findRunMarkerCalls(M);
  // Compiled with -flto: the functions may be in other files. The autodiff
  // pass ran before; the link comes next.
  if (deferToLink(M, !Calls.empty())) {
    finishPreLinkCompile(M);
    return PreservedAnalyses::none();
  }
  enterLinkTime(M);
  if (Calls.empty())
    return PreservedAnalyses::all();
  supplyLibraryBodies(M);

  SmallVector<RunRequest, 8> Requests;
  SetVector<Function *> Roots;
  for (auto [Call, Kind] : Calls)
    if (std::optional<RunRequest> R = parseRunRequest(*Call, Kind)) {
      Roots.insert(R->Fn);
      Requests.push_back(std::move(*R));
    }
  RuntimeABI ABI(M);
  if (!Roots.empty())
    if (auto Built = buildInterruptible(M, ABI, Roots.getArrayRef(),
                                        /*ForCheckpointing=*/false))
      for (const RunRequest &R : Requests)
        lowerRunRequest(R, Built->lookup(R.Fn), ABI);
  for (auto [Call, Kind] : Calls)
    eraseMarkerCall(*Call);
  forkParallelRegions(M);
  expandJournalBarriers(M, ABI, Cleanup.has_value());

  verifyGenerated(M);
  if (Cleanup) {
    auto &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    cleanUpGenerated(M, *Cleanup, FAM);
  }
  return PreservedAnalyses::none();
}

} // namespace capsule
