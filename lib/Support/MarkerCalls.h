//===- MarkerCalls.h - The __capsule_autodiff call-site API -----*- C++ -*-===//
//
// Users ask for derivatives with marker calls in Enzyme's C convention:
//   __capsule_autodiff((void *)f, capsule_dup, x, dx, capsule_const, n);
//   __capsule_fwddiff((void *)f, capsule_dup, x, dx, capsule_const, n);
// Any function whose name contains __capsule_autodiff or __enzyme_autodiff
// (forward mode: __capsule_fwddiff, __enzyme_fwddiff) is a marker (C users
// declare siblings with other return types; C++ gets a template). Activity
// markers are the globals capsule_dup, capsule_dupnoneed, capsule_const,
// capsule_out and their enzyme_ aliases, loaded or by address (Enzyme's C++
// header passes &enzyme_const). Enzyme's result markers enzyme_primal_return,
// enzyme_noret, enzyme_const_return, enzyme_active_return and
// enzyme_dup_return may stand anywhere a marker may; they say what the call
// returns. Split mode's markers __enzyme_augmentfwd and __enzyme_reverse
// (__capsule_augmentfwd, __capsule_reverse) ask for the two halves of a
// gradient, with the tape in between in the program's hands
// (Reverse/SplitGradient.h); enzyme_allocated and enzyme_tape say where it
// is kept.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_MARKERCALLS_H
#define CAPSULE_MARKERCALLS_H

#include "Analysis/Signature.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/ValueHandle.h"

#include <optional>

namespace capsule {

enum class MarkerKind {
  Autodiff,
  AutodiffCheckpointed,
  Fwddiff,
  AugmentFwd,
  Reverse,
  AugmentSize
};

/// Split mode: the half of a gradient a marker call asks for.
enum class SplitHalf { None, Augment, Reverse };

/// Whether calls to \p F are marker calls, and of which kind.
std::optional<MarkerKind> markerKind(const llvm::Function &F);

/// Whether \p Call calls a marker (declared with any type), and which.
std::optional<MarkerKind> markerCallKind(const llvm::CallBase &Call);

/// The calls and invokes of \p F (not other uses of its address).
llvm::SmallVector<llvm::CallBase *, 8> callsTo(llvm::Function &F);

/// True for the globals that are activity or result markers.
bool isActivityMarkerGlobal(const llvm::GlobalVariable &G);

/// A well-formed request for a gradient.
struct GradientRequest {
  llvm::CallBase *Call = nullptr;
  DiffSignature Sig;
  /// The primal arguments, converted to the parameter types of Sig.Fn.
  llvm::SmallVector<llvm::Value *, 8> Args;
  /// The marker call's operand each of Args comes from (a dup argument's
  /// shadow, of width 1, is the next).
  llvm::SmallVector<unsigned, 8> ArgOperands;
  /// The shadows of the dup arguments, in order.
  llvm::SmallVector<llvm::Value *, 4> Shadows;
  /// Forward mode: the tangents of the out (active floating-point)
  /// arguments, in order.
  llvm::SmallVector<llvm::Value *, 4> Tangents;
  /// Where the adjoints (forward mode: the result's tangent) go when the
  /// marker returns a struct in memory (the call's sret argument); null when
  /// they are returned in registers.
  llvm::Value *ResultSlot = nullptr;
  /// enzyme_primal_return: f's result comes back before the derivatives:
  /// {result, {adjoints}} in reverse mode, {result, tangent} in forward mode.
  bool ReturnPrimal = false;
  /// Forward mode: the result's tangent comes back (not after
  /// enzyme_const_return).
  bool ReturnTangent = true;
  /// Inside code that another request differentiates (nested
  /// differentiation): lowered first, and differentiated as generated code.
  bool Nested = false;
  /// Split mode: which half.
  SplitHalf Split = SplitHalf::None;
  /// Split mode: where the tape is. With enzyme_tape, the memory it names
  /// holds the tape (TapeInMemory); else the reverse half's argument after
  /// f's (and after the result's adjoint). These follow replacements: the
  /// tape is typically the augmented half's marker call, lowered first.
  llvm::WeakTrackingVH Tape;
  bool TapeInMemory = false;
  /// enzyme_allocated's operand: the bytes of the tape's memory.
  llvm::WeakTrackingVH TapeBytes;
  /// The reverse half: the adjoint of f's floating-point result.
  llvm::WeakTrackingVH ResultAdjoint;
  /// The augmented half returns the tape, then (ReturnPrimal) f's result,
  /// then (ReturnShadow) the shadow of f's pointer result: those set.
  bool ReturnTape = false, ReturnShadow = false;
};

/// Parses a marker call; reports a compile-time error and returns nothing
/// when it is malformed.
std::optional<GradientRequest> parseGradientRequest(llvm::CallBase &Call);
/// The same for a forward-mode marker (__capsule_fwddiff): a floating-point
/// argument marked dup, or unmarked, is followed by its tangent; the
/// request's signature is a tangent signature.
std::optional<GradientRequest> parseTangentRequest(llvm::CallBase &Call);
/// The same for a half of a split-mode gradient. Its signature is not top
/// level: the program runs between the halves, so the reverse sweep reloads
/// nothing from memory.
std::optional<GradientRequest> parseSplitRequest(llvm::CallBase &Call,
                                                 SplitHalf Half);
/// __enzyme_augmentsize(f, markers...): the function, if the call is
/// well formed (reported otherwise).
llvm::Function *parseAugmentSize(llvm::CallBase &Call);

/// The adjoints of the out arguments (\p Args of a function of type \p FT)
/// as a reverse-mode marker returns them: a struct of one adjoint per out
/// argument, in vector mode an array of its \p Width lanes.
llvm::StructType *markerAdjointsType(llvm::FunctionType *FT,
                                     llvm::ArrayRef<ArgActivity> Args,
                                     unsigned Width);

/// What a gradient request's marker returns: the adjoints of the out
/// arguments (a struct), after \p Primal, f's result, when R.ReturnPrimal:
/// {result, {adjoints}}, or the result alone when there are no adjoints.
llvm::Value *reverseMarkerResult(llvm::IRBuilder<> &B, const GradientRequest &R,
                                 llvm::Value *Primal, llvm::Value *Adjoints);

/// Replaces \p R's marker call's result by \p Produced (the adjoints, the
/// tangent, or either with the primal result first) in the form the parser
/// checked: nothing, the sret slot, the value (a floating-point value
/// converted; zero when \p Produced is null or an empty struct), or the
/// ABI's coerced register type, read back from the value's memory image.
void replaceMarkerResult(llvm::IRBuilder<> &B, const GradientRequest &R,
                         llvm::Value *Produced);

/// \p Produced (as replaceMarkerResult gets it, not in memory) as a value
/// of the marker's declared type \p RetTy.
llvm::Value *markerResultAs(llvm::IRBuilder<> &B, llvm::Value *Produced,
                            llvm::Type *RetTy);

/// The primal arguments of \p R's dup arguments, parallel to R.Shadows.
llvm::SmallVector<llvm::Value *, 4> dupArguments(const GradientRequest &R);

/// Converts argument \p V of marker call \p Call to parameter type \p To
/// the way C's default argument promotions require; reports \p What (e.g.
/// "argument 2 of 'f'") and returns null when it cannot.
llvm::Value *convertMarkerArgument(llvm::CallBase &Call, llvm::Value *V,
                                   llvm::Type *To, const llvm::Twine &What);

/// The interruptible-execution markers of capsule.h.
enum class RunMarkerKind { Primops, Interrupt };

/// Whether calls to \p F are __capsule_primops or __capsule_interrupt.
std::optional<RunMarkerKind> runMarkerKind(const llvm::Function &F);

/// A well-formed __capsule_primops or __capsule_interrupt call.
struct RunRequest {
  llvm::CallBase *Call = nullptr;
  RunMarkerKind Kind;
  llvm::Function *Fn = nullptr;
  /// The step limit of __capsule_interrupt, as i64.
  llvm::Value *Limit = nullptr;
  /// The arguments, converted to the parameter types of Fn.
  llvm::SmallVector<llvm::Value *, 8> Args;
};

/// Parses a run marker call; reports a compile-time error and returns
/// nothing when it is malformed.
std::optional<RunRequest> parseRunRequest(llvm::CallBase &Call,
                                          RunMarkerKind Kind);

} // namespace capsule

#endif
