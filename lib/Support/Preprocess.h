//===- Preprocess.h - Canonical form for differentiation --------*- C++ -*-===//
#ifndef CAPSULE_PREPROCESS_H
#define CAPSULE_PREPROCESS_H

namespace llvm {
class Function;
}

namespace capsule {

/// Clones \p F into a scratch function in canonical form for the sweeps:
/// invokes lowered to calls (exceptions must not unwind through
/// differentiated code), always_inline callees (the SIMD intrinsics'
/// wrappers) inlined, x86 SIMD operations in generic form (X86VectorOps.h),
/// indirect calls that may reach a library function with a rule (libm
/// through a function pointer) given a direct call of it, libm results
/// written through pointers separated (LibmPointerOutputs.h), unreachable
/// blocks removed, a single return block, promotable stack slots in SSA form
/// (so -O0 code is not taped through memory), integer operations on doubles'
/// bits made floating-point ones (FloatBitOperations.h), and integer copies of
/// doubles, floats and pointers retyped. Debug locations are kept for
/// diagnostics.
llvm::Function *prepareForDifferentiation(llvm::Function &F);

} // namespace capsule

#endif
