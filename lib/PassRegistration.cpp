//===- PassRegistration.cpp - The Capsule pass plugin ---------------------===//
//
// Registers Capsule with the new pass manager:
//  - `opt -load-pass-plugin=CapsulePlugin.so -passes=capsule` runs the
//    autodiff pass alone (research builds, IR tests);
//  - `clang -fpass-plugin=CapsulePlugin.so` runs it at every -O level:
//    marker protection at the pipeline start, differentiation at the start
//    of the optimizer pipeline, i.e. after inlining, SROA and the function
//    simplification pipeline and before vectorization. docs/design.md gives
//    the measurements behind this choice; CAPSULE_PIPELINE_POINT=start|last
//    moves it (to the pipeline start, or after vectorization) to repeat
//    them;
//  - `ld.lld --load-pass-plugin=CapsulePlugin.so` (capsule-config
//    --lto-ldflags) runs both at the link, where with -flto they run
//    (Support/LinkTime.h).
//===----------------------------------------------------------------------===//
#include "Interrupt/InterruptPass.h"
#include "Reverse/AutodiffPass.h"
#include "Reverse/LoopTapeReservation.h"
#include "Reverse/ReverseVectorization.h"
#include "Support/LinkTime.h"
#include "Support/ThinLTOImports.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace {

enum class PipelinePoint { Start, OptimizerEarly, OptimizerLast };

/// Where clang's pipeline runs differentiation: the optimizer's start
/// unless CAPSULE_PIPELINE_POINT says otherwise (for measurements).
PipelinePoint pipelinePoint() {
  const char *Env = std::getenv("CAPSULE_PIPELINE_POINT");
  StringRef Value = Env ? Env : "";
  if (Value.empty() || Value == "early")
    return PipelinePoint::OptimizerEarly;
  if (Value == "start")
    return PipelinePoint::Start;
  if (Value == "last")
    return PipelinePoint::OptimizerLast;
  errs() << "capsule: invalid CAPSULE_PIPELINE_POINT value '" << Value
         << "': expected start, early or last; using early\n";
  return PipelinePoint::OptimizerEarly;
}

/// Code generated after the simplification pipeline gets that pipeline
/// again.
std::optional<FunctionPassManager> cleanup(PassBuilder &PB,
                                           OptimizationLevel Level) {
  if (Level == OptimizationLevel::O0)
    return std::nullopt;
  return PB.buildFunctionSimplificationPipeline(Level,
                                                ThinOrFullLTOPhase::None);
}

/// Both marker-lowering passes: differentiation, then interruptible
/// execution, which so runs forward-mode derivatives like any code.
void addCapsulePasses(ModulePassManager &MPM, PassBuilder *PB,
                      OptimizationLevel Level) {
  MPM.addPass(capsule::AutodiffPass(PB ? cleanup(*PB, Level) : std::nullopt));
  MPM.addPass(capsule::InterruptPass(PB ? cleanup(*PB, Level) : std::nullopt));
}

/// Runs its passes on a module at the link only (Support/LinkTime.h).
class LinkTimeOnly : public PassInfoMixin<LinkTimeOnly> {
  ModulePassManager Passes;

public:
  explicit LinkTimeOnly(ModulePassManager Passes) : Passes(std::move(Passes)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (!capsule::isLinkTimeModule(M))
      return PreservedAnalyses::all();
    return Passes.run(M, MAM);
  }
};

/// The end of a ThinLTO compile (Support/ThinLTOImports.h).
struct ThinLTOImportRequests : PassInfoMixin<ThinLTOImportRequests> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return capsule::requestThinLTOImports(M) ? PreservedAnalyses::none()
                                             : PreservedAnalyses::all();
  }
};

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "capsule") {
          addCapsulePasses(MPM, nullptr, OptimizationLevel::O0);
          return true;
        }
        if (Name == "capsule-protect-markers") {
          MPM.addPass(capsule::ProtectMarkersPass());
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "capsule-loop-tape") {
          FPM.addPass(capsule::LoopTapeReservationPass());
          return true;
        }
        if (Name == "capsule-reverse-vectorization") {
          FPM.addPass(capsule::ReverseVectorizationPass());
          return true;
        }
        return false;
      });
  // Before the vectorizer, which a loop's per-record checks would stop and
  // which may take reverse sweeps that update no neighbours.
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(capsule::LoopTapeReservationPass());
        FPM.addPass(capsule::ReverseVectorizationPass());
      });
  PipelinePoint Point = pipelinePoint();
  PB.registerPipelineStartEPCallback(
      [Point](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(capsule::ProtectMarkersPass());
        if (Point == PipelinePoint::Start)
          addCapsulePasses(MPM, nullptr, OptimizationLevel::O0);
      });
  PB.registerOptimizerEarlyEPCallback(
      [&PB, Point](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Point == PipelinePoint::OptimizerEarly)
          addCapsulePasses(MPM, &PB, Level);
      });
  // ThinLTO's backends: before the optimizer's start, where the bodies the
  // link imported are gone (EliminateAvailableExternally), and only in a
  // file whose compile left its marker calls to the link.
  PB.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        ModulePassManager AtTheLink;
        addCapsulePasses(AtTheLink, nullptr, OptimizationLevel::O0);
        MPM.addPass(LinkTimeOnly(std::move(AtTheLink)));
      });
  // Full LTO: the link's merged module (compiles with -flto left their
  // marker calls to it: Support/LinkTime.h).
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        addCapsulePasses(MPM, &PB, Level);
      });
  PB.registerOptimizerLastEPCallback(
      [&PB, Point](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Point == PipelinePoint::OptimizerLast)
          addCapsulePasses(MPM, &PB, Level);
        MPM.addPass(ThinLTOImportRequests());
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Capsule", "0.1.0", registerCallbacks};
}
