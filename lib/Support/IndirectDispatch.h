//===- IndirectDispatch.h - Indirect calls as direct calls ------*- C++ -*-===//
//
// Generated code (derivatives, step variants) needs a counterpart for the
// target of every call, so an indirect call becomes a comparison of the
// function pointer with each function of the module it may reach, and a
// call of that function's counterpart. A pointer to anything else stops the
// program with a message naming the call site.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_INDIRECTDISPATCH_H
#define CAPSULE_INDIRECTDISPATCH_H

#include "llvm/IR/IRBuilder.h"

namespace capsule {

class RuntimeABI;

/// Emits the dispatch of indirect call \p Call through \p Callee at \p B's
/// insertion point: for each possible target, \p EmitCall emits the call of
/// its counterpart and returns the result (null for void). Leaves \p B
/// after the join and returns the joined result (null when \p ResultTy is
/// void). \p Origin names the user's function in the run-time message when
/// the call has no debug location. \p IncludeDeclarations also dispatches
/// to the external functions of the module whose address is taken.
llvm::Value *emitIndirectDispatch(
    llvm::IRBuilder<> &B, RuntimeABI &ABI, llvm::CallBase &Call,
    llvm::Value *Callee, llvm::Type *ResultTy, const llvm::Function &Origin,
    llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, llvm::Function *)>
        EmitCall,
    bool IncludeDeclarations = false);

} // namespace capsule

#endif
