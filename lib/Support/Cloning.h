//===- Cloning.h - Function clones without walking debug types -*- C++ -*-===//
//
// LLVM 19's CloneFunctionInto, cloning within a module, gives the clone a
// copy of the subprogram and finds what must not be copied by walking every
// debug-info type the subprogram reaches. For C++ templates (Eigen, the
// standard library) that is a large part of the module's types, walked
// again for every clone: compiled with -g, differentiating Eigen's LU
// solve at -O0 took 11 minutes instead of 8 seconds. These clone the same
// way but copy only the metadata local to the function.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_CLONING_H
#define CAPSULE_CLONING_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace llvm {
class Function;
class ReturnInst;
} // namespace llvm

namespace capsule {

/// CloneFunctionInto(\p New, \p Old, \p VMap, LocalChangesOnly, \p Returns):
/// \p New gets \p Old's attributes and body, and a copy of \p Old's
/// subprogram (if any) that the body's locations, lexical blocks, local
/// variables, labels and loop annotations refer to; types, compile units and
/// other functions' subprograms are shared, not walked.
void cloneFunctionInto(llvm::Function &New, llvm::Function &Old,
                       llvm::ValueToValueMapTy &VMap,
                       llvm::SmallVectorImpl<llvm::ReturnInst *> &Returns);

/// CloneFunction(\p F, \p VMap) the same way: a copy of \p F in its module.
llvm::Function *cloneFunction(llvm::Function &F, llvm::ValueToValueMapTy &VMap);

} // namespace capsule

#endif
