//===- LibmPointerOutputs.h - libm results through pointers -----*- C++ -*-===//
//
// modf, frexp, remquo, lgamma_r and sincos return part of their result
// through pointer arguments. The derivative rules see calls as functions of
// their arguments, so these calls are rewritten into a value the rules know
// and explicit stores of the rest.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LIBMPOINTEROUTPUTS_H
#define CAPSULE_LIBMPOINTEROUTPUTS_H

namespace llvm {
class Function;
}

namespace capsule {

/// Rewrites the calls in \p F of libm functions that write results through
/// pointers:
///  - sincos(x, s, c) stores sin(x) and cos(x);
///  - modf(x, ip) writes into a slot of its own and ip receives trunc(x),
///    whose derivative is 0, so the memory's old adjoint or tangent is
///    replaced, as the value is;
///  - frexp, remquo and lgamma_r write their integer into a slot of their
///    own, copied to the program's pointer afterwards.
/// The calls that remain write only their own slots, which nothing else
/// reads, so the sweeps may treat them as functions of their arguments.
void separateLibmPointerOutputs(llvm::Function &F);

} // namespace capsule

#endif
