//===- NestingOrder.h - Which marker calls to lower first ---*- C++ -*-===//
//
// Nested differentiation (a Hessian-vector product as the tangent of a
// gradient, forward over forward, ...) differentiates code that itself
// calls a marker. Capsule lowers marker calls innermost first: the inner
// call becomes ordinary generated code (a call of a derivative function
// and the runtime's brackets), and the outer derivative differentiates that
// code like any other. A marker call is ready to lower once the function it
// differentiates no longer reaches any marker call still to be lowered.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_NESTINGORDER_H
#define CAPSULE_NESTINGORDER_H

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Function;
class GlobalVariable;
} // namespace llvm

namespace capsule {

/// Adds to \p Reached the functions with bodies that running \p F may run:
/// F itself, its callees, and for an indirect call every address-taken
/// function of the module with a matching type.
void addReachable(llvm::Function &F,
                  llvm::SmallPtrSetImpl<const llvm::Function *> &Reached);

/// Whether running \p F may run code of one of \p Containing.
bool reachesAny(
    llvm::Function &F,
    const llvm::SmallPtrSetImpl<const llvm::Function *> &Containing);

/// The globals with shadows that code \p F may run names.
llvm::SmallSetVector<llvm::GlobalVariable *, 4>
namedShadowedGlobals(llvm::Function &F);

} // namespace capsule

#endif
