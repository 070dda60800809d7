//===- RuleArguments.h - Struct arguments a rule cannot take ----*- C++ -*-===//
//
// A custom rule's arguments are paired one by one with their tangents (a
// tangent rule) or shadows (a gradient rule, for those that are not
// floating point). The C ABI passes a struct of 9 to 16 bytes, or a
// `double complex`, as two arguments, so a rule that takes one whole would
// read its second field as the first one's tangent: a silently wrong
// derivative. Two places refuse such rules with the same words: the pass,
// from debug information (Support/CustomRules.cpp), and clang's plugin, from
// the source (clang-plugin/RuleSignatures.cpp), which needs no -g.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RULEARGUMENTS_H
#define CAPSULE_RULEARGUMENTS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace capsule {

/// Why the \p What (tangent rule, gradient rule, ...) \p Rule cannot take
/// its argument \p K, of type \p TypeName ("" if unnamed), a struct the C
/// ABI splits; \p Tangents: a tangent rule's pairing, else a gradient
/// rule's.
inline std::string splitStructArgumentMessage(llvm::StringRef What,
                                              llvm::StringRef Rule, unsigned K,
                                              llvm::StringRef TypeName,
                                              bool Tangents) {
  return "the " + What.str() + " '" + Rule.str() + "' takes argument " +
         std::to_string(K) +
         (TypeName.empty() ? "" : " ('" + TypeName.str() + "')") +
         " by value, which the C ABI passes as several arguments that "
         "Capsule cannot pair with their " +
         (Tangents ? "tangents" : "shadows") +
         ": take its fields as arguments of their own, each followed by its " +
         (Tangents ? "tangent" : "shadow unless it is floating point") +
         ", or pass it by pointer";
}

} // namespace capsule

#endif
