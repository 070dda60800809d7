//===- ReverseVectorization.h - Vectorizing reverse sweeps ------*- C++ -*-===//
//
// A reverse sweep that scatters updates into neighbouring shadow elements
// (the adjoint of a stencil writes dx[i-1], dx[i] and dx[i+1]) must not be
// vectorized: its wide loads then read memory the previous iteration just
// wrote with narrow stores, which defeats store forwarding (rk4 6.2 against
// 3.2 gradient/primal; docs/design.md). Other reverse sweeps gain from it as
// the primal does (GradBench ode 5.2 -> 4.4). Reverse sweeps are therefore
// generated with noimplicitfloat, the attribute both of LLVM's vectorizers
// honour, and tagged; before the vectorizers run, this pass lifts the
// attribute from a tagged sweep that has loops and none that updates
// neighbours. Sweeps without loops keep it: the SLP vectorizer's wide loads
// of shadows just updated cost more than they save (GradBench ba 6.5 ->
// 7.5).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_REVERSEVECTORIZATION_H
#define CAPSULE_REVERSEVECTORIZATION_H

#include "llvm/IR/PassManager.h"

namespace capsule {

/// The tag of reverse sweeps whose noimplicitfloat this pass may lift.
inline constexpr const char *ReverseSweepAttr = "capsule-reverse-sweep";

/// Lifts noimplicitfloat from a tagged reverse sweep that has loops, none
/// of which stores at an address that moves with the loop a few bytes from
/// another access of the same object, or at an address scalar evolution
/// cannot follow. Runs before the vectorizer (clang's pipeline).
class ReverseVectorizationPass
    : public llvm::PassInfoMixin<ReverseVectorizationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace capsule

#endif
