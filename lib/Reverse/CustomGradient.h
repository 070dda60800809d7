//===- CustomGradient.h - Sweeps calling a user's rule ----------*- C++ -*-===//
//
// A function with a gradient rule (Support/CustomRules.h) is not
// differentiated: its forward sweep calls the augmented forward rule and
// keeps on the tape what the gradient rule will need (the arguments with
// their shadows, the rule's own tape), and its reverse sweep pops that and
// calls the gradient rule. Everything else sees an ordinary derivative.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_CUSTOMGRADIENT_H
#define CAPSULE_CUSTOMGRADIENT_H

#include "Reverse/Differentiator.h"
#include "Support/CustomRules.h"

namespace capsule {

/// Whether vector mode may call \p F's gradient rule once per lane after
/// one augmented call: rules of functions without pointers
/// (rulesCallablePerLane), and the runtime's BLAS rules, which leave
/// shadows alone in the augmented call and only read their tapes, kept for
/// every lane (__capsule_blas_keep_tapes).
bool gradientRuleRunsPerLane(const llvm::Function &F);

/// Gives \p Dv, the derivative of \p Sig, bodies that call \p Rule.
void emitGradientRuleSweeps(RuntimeABI &ABI, const DiffSignature &Sig,
                            const GradientRule &Rule, const Derivative &Dv);

} // namespace capsule

#endif
