//===- CustomTangent.h - Tangents calling a user's rule ---------*- C++ -*-===//
//
// A function with a tangent rule (Support/CustomRules.h) is not
// differentiated in forward mode: its tangent function calls the rule with
// each argument followed by its tangent. Arguments without one get: zero
// for a floating-point value, the pointer's place in the tangent sink (which
// reads as zero, and takes what the rule writes) for a pointer to memory
// without derivatives, the integer itself (as Enzyme gives it).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_CUSTOMTANGENT_H
#define CAPSULE_CUSTOMTANGENT_H

#include "Analysis/Signature.h"
#include "Support/RuntimeABI.h"

namespace capsule {

/// Gives \p Tangent, the tangent function of \p Sig (width 1), a body that
/// calls the tangent rule \p Rule.
void emitTangentRuleBody(RuntimeABI &ABI, const DiffSignature &Sig,
                         llvm::Function &Rule, llvm::Function &Tangent);

} // namespace capsule

#endif
