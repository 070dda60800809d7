//===- DerivativeRules.h - Adjoints of elementary functions -----*- C++ -*-===//
#ifndef CAPSULE_DERIVATIVERULES_H
#define CAPSULE_DERIVATIVERULES_H

#include "Analysis/CallClassifier.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace capsule {

/// The primal values a rule may ask for, fetched lazily so that only what a
/// rule really uses is taped.
struct PrimalOperands {
  llvm::function_ref<llvm::Value *(unsigned)> Arg;
  llvm::function_ref<llvm::Value *()> Result;
  /// The result of the program's own call of another function on the same
  /// argument (siblingMathCall), or null: cos(x) for the rule of sin(x).
  llvm::function_ref<llvm::Value *(MathOp)> Sibling;
};

/// The metadata on a comparison a rule makes (fmin's: which operand was
/// taken). It compares a result with its operand, not a value with a cache
/// key, which the memoisation check must not take it for when the rule's
/// code is differentiated again (reverse over forward).
inline constexpr const char *RuleComparisonMD = "capsule.rule";

/// Emits the adjoint contributions of elementary function \p Op given the
/// adjoint \p D of its result. Entry i of the result is the contribution to
/// argument i, or null where there is none (integer arguments, piecewise
/// constant functions). \p Wanted says which arguments need one.
llvm::SmallVector<llvm::Value *, 3> mathAdjoints(llvm::IRBuilder<> &B,
                                                 MathOp Op, unsigned NumArgs,
                                                 llvm::ArrayRef<bool> Wanted,
                                                 const PrimalOperands &Primal,
                                                 llvm::Value *D);

} // namespace capsule

#endif
