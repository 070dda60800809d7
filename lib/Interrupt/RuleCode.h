//===- RuleCode.h - Users' gradient rules in checkpointed code --*- C++ -*-===//
//
// A checkpointed gradient runs a function with a gradient rule of the
// user's three ways: its green runs call the function itself, a stage's
// taped sweep its augmented rule, and the reverse sweep its gradient rule.
// The schedule re-executes stages from capsules, so the first two must
// write memory only where the journal sees it: they run as *rule code*,
// clones instrumented like interruptible code (journal barriers, the
// arena's deterministic allocation, which the gradient rule's clone frees
// to) but atomic and charged no steps, since the function in a green run
// and its augmented rule in a taped run must cost the same. The gradient
// rule writes adjoints, which rollbacks keep: its clone journals nothing.
// So the function and both rules need bodies here, and the augmented rule
// must leave shadow memory alone, as the built-in rules do: green runs,
// which call the function, would not repeat its writes there.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RULECODE_H
#define CAPSULE_RULECODE_H

#include "Support/CustomRules.h"

#include <optional>
#include <string>

namespace capsule {

/// The gradient rule of the user's that \p Callee has, if any (not a
/// built-in rule of a library routine).
std::optional<GradientRule> userGradientRule(const llvm::Function &Callee);

/// Why a checkpointed gradient cannot run \p Callee through its user's
/// gradient rule \p Rule, if it cannot: the function or a rule has no body
/// in the module.
std::optional<std::string>
whyUserRuleNotCheckpointable(const llvm::Function &Callee,
                             const GradientRule &Rule);

/// Checks that \p Clone, the rule code of \p Callee's augmented rule
/// \p Augment (in canonical form), writes to none of its shadows; reports
/// the place where it may, and returns false, otherwise.
bool checkAugmentLeavesShadows(const llvm::Function &Callee,
                               const llvm::Function &Augment,
                               const llvm::Function &Clone);

} // namespace capsule

#endif
