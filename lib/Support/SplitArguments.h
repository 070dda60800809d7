//===- SplitArguments.h - Struct arguments the C ABI splits -----*- C++ -*-===//
//
// Custom rules' arguments and markers' arguments are paired one by one
// with their tangents or shadows (Pairing below says which). The C ABI
// passes a struct of 9 to 16 bytes, or a `double complex`, as two
// arguments, so a tangent rule taking one whole, or __enzyme_fwddiff of a
// function taking one, would read its second field as the first one's
// tangent: a silently wrong derivative. Two places refuse them with the
// same words: the pass, from debug information (Support/CustomRules.cpp,
// Support/MarkerCalls.cpp), and clang's plugin, from the source
// (clang-plugin/RuleSignatures.cpp), which needs no -g.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_SPLITARGUMENTS_H
#define CAPSULE_SPLITARGUMENTS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class Function;
}

namespace capsule {

/// Who takes the struct, which says what its fields, once the C ABI has
/// split it, would be paired with: every field with its tangent (a tangent
/// rule, the function of a forward-mode marker), each field that is not
/// floating point with its shadow (a gradient rule), or each pointer with
/// its shadow (the function of a reverse-mode marker, where an unmarked
/// pointer is dup).
enum class Pairing { TangentRule, GradientRule, ForwardMarker, ReverseMarker };

/// Why \p Who ("the tangent rule 'f_tan'", "'f', differentiated in forward
/// mode,") cannot take its argument \p K, of type \p TypeName ("" if
/// unnamed), a struct the C ABI splits, its fields paired as \p P says.
inline std::string splitArgumentMessage(llvm::StringRef Who, unsigned K,
                                        llvm::StringRef TypeName, Pairing P) {
  bool Tangents = P == Pairing::TangentRule || P == Pairing::ForwardMarker;
  std::string Advice =
      P == Pairing::TangentRule
          ? "take its fields as arguments of their own, each followed by its "
            "tangent, or pass it by pointer"
      : P == Pairing::GradientRule
          ? "take its fields as arguments of their own, each followed by its "
            "shadow unless it is floating point, or pass it by pointer"
          : "pass it by pointer";
  return Who.str() + " takes argument " + std::to_string(K) +
         (TypeName.empty() ? "" : " ('" + TypeName.str() + "')") +
         " by value, which the C ABI passes as several arguments that "
         "Capsule cannot pair with their " +
         (Tangents ? "tangents" : "shadows") + ": " + Advice;
}

/// A parameter of a function as its source declared it.
struct SplitArgument {
  unsigned Number; // from 1
  std::string TypeName;
};

/// The first parameter of \p F, by its debug information, that the C ABI
/// passes as several arguments whose fields \p P would pair wrongly; none
/// without debug information.
std::optional<SplitArgument> splitArgument(const llvm::Function &F, Pairing P);

} // namespace capsule

#endif
