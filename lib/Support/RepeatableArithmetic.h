//===- RepeatableArithmetic.h - The same bits in every copy -----*- C++ -*-===//
//
// A checkpointed gradient runs its primal more than once, in different
// functions: the step function counts the steps, the forward sweeps without
// and with a tape run stretches of it again, and each must take the control
// flow the first run took (a convergence test compares last bits). The
// optimizer compiles each copy separately; fast-math flags let it
// reassociate and fuse each its own way, and then the copies round
// differently and the re-run "did not repeat its computation" (NR's tqli
// after tred2 at -O3 -ffast-math). So the copies made for checkpointing
// compute as written: no fast-math flags, and none of the function
// attributes that let code generation do the same.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_REPEATABLEARITHMETIC_H
#define CAPSULE_REPEATABLEARITHMETIC_H

namespace llvm {
class Function;
} // namespace llvm

namespace capsule {

/// Drops the fast-math flags of \p F's instructions and declares that its
/// code generation may not assume them either.
void makeArithmeticRepeatable(llvm::Function &F);

} // namespace capsule

#endif // CAPSULE_REPEATABLEARITHMETIC_H
