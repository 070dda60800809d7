//===- CheckpointedGradient.h - Lowers checkpointed gradients ---*- C++ -*-===//
#ifndef CAPSULE_CHECKPOINTEDGRADIENT_H
#define CAPSULE_CHECKPOINTEDGRADIENT_H

#include "Interrupt/InterruptibleBuilder.h"
#include "Support/MarkerCalls.h"

#include "llvm/IR/IRBuilder.h"

namespace capsule {

class Differentiator;

/// What the driver seeds the result's adjoint with (capsule_checkpointed_entry
/// in runtime/abi.h).
enum class SeededResult : uint32_t { None = 0, Float = 1, Double = 2 };

/// The __capsule_autodiff_checkpointed calls of a module (DESIGN §2): the
/// root becomes interruptible, the derivative of its step function is one
/// stage's gradient, and the runtime driver schedules the stages.
class CheckpointedGradients {
public:
  explicit CheckpointedGradients(Differentiator &D) : D(D) {}

  /// Builds the interruptible variant of every root and asks \p D for the
  /// derivative of its step function. Returns false after reporting errors
  /// (the requests must then not be lowered).
  bool prepare(llvm::ArrayRef<GradientRequest> Requests);

  /// Once \p D has run: emits, before \p R's call, the driver call that
  /// computes the gradient; returns what the marker returns
  /// (reverseMarkerResult): the adjoints of the out arguments, after f's
  /// result when the request asks for it.
  llvm::Value *lower(const GradientRequest &R);

private:
  /// The signature of \p Root's stage: its step function, dup.
  DiffSignature stageSignature(llvm::Function &Root,
                               bool Untaped = false) const;
  llvm::GlobalVariable *checkpointedEntry(llvm::Function &Root,
                                          SeededResult Seed);

  Differentiator &D;
  llvm::DenseMap<llvm::Function *, InterruptibleRoot> Roots;
  /// The level of each root's derivatives (DiffSignature::Level): above
  /// that of the tangent function whose checkpointed gradient it is
  /// (Forward/CheckpointedTangents.cpp), else 0.
  llvm::DenseMap<llvm::Function *, unsigned> Levels;
  /// One entry per root and seed: a root's result may be seeded in one
  /// request and constant (enzyme_const_return) in another.
  llvm::DenseMap<std::pair<llvm::Function *, SeededResult>,
                 llvm::GlobalVariable *>
      Entries;
};

} // namespace capsule

#endif
