//===- ComplexRules.h - Derivatives of complex functions --------*- C++ -*-===//
//
// C99's complex functions (cexp, csqrt, cabs, ...) and the multiplication
// and division C's operators call (__muldc3, __divdc3), which
// std::complex<double> also reaches. A complex argument or result is in
// the x86-64 ABI's form: two doubles, a {double, double} or a <2 x float>.
// The rules give the partial derivatives of the result's real and
// imaginary parts by each real scalar of the arguments; reverse mode
// multiplies the result's adjoint by them, forward mode the arguments'
// tangents.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_COMPLEXRULES_H
#define CAPSULE_COMPLEXRULES_H

#include "Analysis/CallClassifier.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace capsule {

/// The scalars of a complex function's operand or result \p V, or of its
/// adjoint or twin, shaped by the primal type \p Shape: the real and
/// imaginary parts of a {T, T} or <2 x T>, or a real scalar itself. Twins of
/// width N of a {T, T} (a {<N x T>, <N x T>}) split the same way; the twin
/// of a real scalar is one part whatever its width.
llvm::SmallVector<llvm::Value *, 2>
complexParts(llvm::IRBuilder<> &B, llvm::Value *V, llvm::Type *Shape);

/// The value of type \p Ty shaped by primal type \p Shape and made of
/// \p Parts (the inverse of complexParts).
llvm::Value *fromComplexParts(llvm::IRBuilder<> &B, llvm::Type *Shape,
                              llvm::Type *Ty,
                              llvm::ArrayRef<llvm::Value *> Parts);

/// Partials[k][j]: the derivative of scalar j of the result by scalar k of
/// the arguments (their complexParts, argument after argument).
using ComplexPartials =
    llvm::SmallVector<llvm::SmallVector<llvm::Value *, 2>, 4>;

/// The partial derivatives of complex function \p Op at the primal scalars
/// \p Args; \p Result gives the result's scalars where a rule reuses them.
ComplexPartials complexPartials(
    llvm::IRBuilder<> &B, MathOp Op, llvm::ArrayRef<llvm::Value *> Args,
    llvm::function_ref<llvm::SmallVector<llvm::Value *, 2>()> Result);

} // namespace capsule

#endif
