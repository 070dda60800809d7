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
//    them.
//===----------------------------------------------------------------------===//
#include "AutodiffPass.h"

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

/// Differentiation after the simplification pipeline gets that pipeline
/// again on the functions it generates.
capsule::AutodiffPass autodiffWithCleanup(PassBuilder &PB,
                                          OptimizationLevel Level) {
  std::optional<FunctionPassManager> Cleanup;
  if (Level != OptimizationLevel::O0)
    Cleanup =
        PB.buildFunctionSimplificationPipeline(Level, ThinOrFullLTOPhase::None);
  return capsule::AutodiffPass(std::move(Cleanup));
}

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "capsule") {
          MPM.addPass(capsule::AutodiffPass());
          return true;
        }
        if (Name == "capsule-protect-markers") {
          MPM.addPass(capsule::ProtectMarkersPass());
          return true;
        }
        return false;
      });
  PipelinePoint Point = pipelinePoint();
  PB.registerPipelineStartEPCallback(
      [Point](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(capsule::ProtectMarkersPass());
        if (Point == PipelinePoint::Start)
          MPM.addPass(capsule::AutodiffPass());
      });
  PB.registerOptimizerEarlyEPCallback(
      [&PB, Point](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Point == PipelinePoint::OptimizerEarly)
          MPM.addPass(autodiffWithCleanup(PB, Level));
      });
  PB.registerOptimizerLastEPCallback(
      [&PB, Point](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Point == PipelinePoint::OptimizerLast)
          MPM.addPass(autodiffWithCleanup(PB, Level));
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Capsule", "0.1.0", registerCallbacks};
}
