//===- X86VectorOps.h - x86 SIMD operations as generic IR -------*- C++ -*-===//
//
// SSE and AVX code reaches the differentiator as x86-specific intrinsics
// (_mm_max_pd is llvm.x86.sse2.max.pd, _mm_hadd_pd llvm.x86.sse3.hadd.pd)
// and, in Eigen, as inline assembly (its pmin and pmax use minpd and maxpd
// in asm for compilers that claim to be an old GCC, which clang does, and
// with FMA its pmadd is vfmadd231pd in asm). They
// become the generic IR they compute, exactly: selects of comparisons,
// shuffles and additions, whose derivatives the sweeps know. Vector
// reductions by maximum and minimum become a tree of maxnum and minnum,
// sums and products (what the loop vectorizer makes of a reduction under
// -ffast-math or `omp simd reduction`) a chain in the lanes' order.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_X86VECTOROPS_H
#define CAPSULE_X86VECTOROPS_H

namespace llvm {
class Function;
}

namespace capsule {

/// Rewrites the x86 SIMD operations of \p F that have a generic form.
void lowerX86VectorOps(llvm::Function &F);

} // namespace capsule

#endif
