//===- PassRegistration.cpp - The Capsule pass plugin ---------------------===//
//
// Registers Capsule with the new pass manager:
//  - `opt -load-pass-plugin=CapsulePlugin.so -passes=capsule` runs the
//    autodiff pass alone (research builds, IR tests);
//  - `clang -fpass-plugin=CapsulePlugin.so` runs it at every -O level:
//    marker protection at the pipeline start, differentiation at the start
//    of the optimizer pipeline, i.e. after inlining, SROA and the function
//    simplification pipeline and before vectorization. See docs/design.md
//    for why this point.
//===----------------------------------------------------------------------===//
#include "AutodiffPass.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

namespace {

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
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(capsule::ProtectMarkersPass());
      });
  PB.registerOptimizerEarlyEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel Level) {
        std::optional<FunctionPassManager> Cleanup;
        if (Level != OptimizationLevel::O0)
          Cleanup = PB.buildFunctionSimplificationPipeline(
              Level, ThinOrFullLTOPhase::None);
        MPM.addPass(capsule::AutodiffPass(std::move(Cleanup)));
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Capsule", "0.1.0", registerCallbacks};
}
