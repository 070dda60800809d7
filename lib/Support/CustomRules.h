//===- CustomRules.h - Users' derivatives and annotations -------*- C++ -*-===//
//
// What users say about their functions and globals, in Enzyme's spelling
// (../shared/enzyme-conventions.md) and Capsule's (capsule.h):
//   - a gradient rule: `void *__enzyme_register_gradient_NAME[3] = {fn,
//     augment, gradient}` (Reverse/CustomGradient.cpp uses it);
//   - a tangent rule: `void *__enzyme_register_derivative_NAME[2] = {fn,
//     tangent}` (Forward/CustomTangent.cpp);
//   - an inactive function (`__enzyme_inactivefn_NAME = {fn}`, the
//     annotation or attribute enzyme_inactive): it runs, no derivative flows
//     through it;
//   - an inactive global (`__enzyme_inactive_global_NAME = {&g}`, the
//     annotation on a global): it has no shadow;
//   - a function differentiated as a libm function (`__enzyme_function_like
//     _NAME = {fn, "log1p"}`, the annotation enzyme_function_like=log1p, the
//     attribute enzyme_math).
// BLAS routines and qsort get built-in rules (Support/LibraryRules.h).
// readCustomRules checks each against its function and records it on the
// function or global, where the rest of the pass asks for it, so that it
// survives the optimizer's removal of the registration globals.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_CUSTOMRULES_H
#define CAPSULE_CUSTOMRULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace capsule {

/// Reads, checks and records every rule and annotation of \p M, reporting
/// malformed ones as compile-time errors; the rules' functions are kept
/// from being inlined into their callers or removed. Reads a module once:
/// later calls do nothing.
void readCustomRules(llvm::Module &M);

/// The entries of llvm.global.annotations: {value, text, file, line, args}.
llvm::SmallVector<llvm::ConstantStruct *, 4> globalAnnotations(llvm::Module &M);

/// Whether \p G registers a rule or annotation readCustomRules reads.
bool isRuleRegistration(const llvm::GlobalVariable &G);
/// What registration \p G is about: the function or global it names first.
llvm::GlobalValue *registeredSymbol(const llvm::GlobalVariable &G);
/// Whether readCustomRules reads the annotation \p Text
/// (`__attribute__((annotate(Text)))`).
bool isRuleAnnotation(llvm::StringRef Text);
/// Whether readCustomRules reads the function attribute \p Kind.
bool isRuleAttribute(llvm::StringRef Kind);

/// A gradient rule (Enzyme's convention). Augment takes the function's
/// arguments, each non-floating-point one followed by its shadow, and
/// returns the fields below; Gradient takes the same, then the adjoint of
/// a floating-point result, then the tape if there is one, and returns the
/// adjoints of the floating-point arguments (one value, or a struct of
/// them in order).
struct GradientRule {
  llvm::Function *Augment = nullptr;
  llvm::Function *Gradient = nullptr;
  /// Where augment's result holds the tape, the primal result and the
  /// shadow of a pointer result: -1 for none, -2 for the whole result,
  /// else the struct field.
  int TapeField = -1;
  int PrimalField = -1;
  int ShadowField = -1;
  llvm::Type *TapeTy = nullptr;
};
std::optional<GradientRule> gradientRule(const llvm::Function &F);
/// Records \p Augment and \p Gradient as \p F's gradient rule, and
/// \p Tangent as its tangent rule (the caller checked that they fit).
void setGradientRule(llvm::Function &F, llvm::Function &Augment,
                     llvm::Function &Gradient);
void setTangentRule(llvm::Function &F, llvm::Function &Tangent);

/// A tangent rule: the function's arguments each followed by its tangent;
/// returns {result, tangent of the result} for a floating-point result,
/// {result, shadow of the result} for a pointer, else the result.
llvm::Function *tangentRule(const llvm::Function &F);

/// Whether vector mode may call \p F's rules once per lane: F takes and
/// returns no pointers, so its rules touch no memory of the program's and
/// a tangent rule's primal effect is its result alone (a gradient rule's
/// augmented half runs once; it must keep no tape, which its gradient half
/// would free once per lane).
bool rulesCallablePerLane(const llvm::Function &F);

bool isInactiveFunction(const llvm::Function &F);
/// Makes \p F inactive (a step function of an inactive function's).
void markInactive(llvm::Function &F);
bool isInactiveGlobal(const llvm::GlobalVariable &G);

/// The libm function \p F is differentiated as, if any.
std::optional<llvm::StringRef> functionLikeName(const llvm::Function &F);

/// Whether an argument of type \p T is followed by its shadow in a rule's
/// parameters: everything but floating-point values, whose adjoints the
/// gradient rule returns.
bool hasShadowParam(llvm::Type *T);

/// The parameter types a rule of \p Fn takes before any adjoint or tape:
/// each argument, followed by its shadow unless it is floating point.
llvm::SmallVector<llvm::Type *, 8>
argumentsWithShadows(const llvm::Function &Fn);
/// The parameter types a tangent rule of \p Fn takes: each argument,
/// followed by its tangent.
llvm::SmallVector<llvm::Type *, 8>
argumentsWithTangents(const llvm::Function &Fn);
/// The types of the adjoints a gradient rule of \p Fn returns: those of
/// its floating-point arguments, in order.
llvm::SmallVector<llvm::Type *, 4> adjointTypes(const llvm::Function &Fn);

/// A rule's parameters as C declared them: without the hidden pointer a
/// struct result comes back through (sret).
llvm::ArrayRef<llvm::Type *> ruleParams(const llvm::Function &Rule);
/// A rule's result type as C declared it (the struct behind an sret).
llvm::Type *ruleResultType(const llvm::Function &Rule);
/// Calls \p Rule with \p Args at \p B; returns its result as C declared
/// it (loaded from the sret slot where there is one).
llvm::Value *callRule(llvm::IRBuilder<> &B, llvm::Function &Rule,
                      llvm::ArrayRef<llvm::Value *> Args);
/// Field \p K of \p NumFields of a rule's result: of a struct, of the
/// vector C returns a pair of floats in, or the result itself when it is
/// the one field.
llvm::Value *resultField(llvm::IRBuilder<> &B, llvm::Value *Result, unsigned K,
                         unsigned NumFields);

} // namespace capsule

#endif
