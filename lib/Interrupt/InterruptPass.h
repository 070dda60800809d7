//===- InterruptPass.h - Lowers interruption markers ------------*- C++ -*-===//
#ifndef CAPSULE_INTERRUPTPASS_H
#define CAPSULE_INTERRUPTPASS_H

#include "llvm/IR/PassManager.h"

#include <optional>

namespace capsule {

/// Makes the functions named by __capsule_primops and __capsule_interrupt
/// calls, and everything they call, interruptible (docs/interrupt.md), and
/// replaces the calls by calls of the runtime's driver.
class InterruptPass : public llvm::PassInfoMixin<InterruptPass> {
public:
  /// \p Cleanup, when given, runs on every generated function.
  explicit InterruptPass(std::optional<llvm::FunctionPassManager> Cleanup = {})
      : Cleanup(std::move(Cleanup)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  std::optional<llvm::FunctionPassManager> Cleanup;
};

} // namespace capsule

#endif
