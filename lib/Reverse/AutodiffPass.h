//===- AutodiffPass.h - Lowers gradient marker calls ------------*- C++ -*-===//
#ifndef CAPSULE_AUTODIFFPASS_H
#define CAPSULE_AUTODIFFPASS_H

#include "llvm/IR/PassManager.h"

#include <optional>

namespace capsule {

/// Replaces every __capsule_autodiff call by a call of the forward sweep of
/// the function it names, then its reverse sweep, bracketed by the runtime's
/// gradient-call hooks.
class AutodiffPass : public llvm::PassInfoMixin<AutodiffPass> {
public:
  /// \p Cleanup, when given, runs on every generated function (the
  /// simplification the rest of the pipeline would no longer apply to them).
  explicit AutodiffPass(std::optional<llvm::FunctionPassManager> Cleanup = {})
      : Cleanup(std::move(Cleanup)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  std::optional<llvm::FunctionPassManager> Cleanup;
};

/// Runs at the very start of the pipeline, so that optimization before the
/// autodiff pass keeps marker calls readable: marks the activity-marker
/// globals as externally initialized (no load of `int enzyme_dup;`, defined,
/// zero and never stored, is folded into 0) and marker calls as nomerge.
/// Refuses the API names Capsule does not implement while the code still
/// holds all of them (ApiNames.h).
class ProtectMarkersPass : public llvm::PassInfoMixin<ProtectMarkersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace capsule

#endif
