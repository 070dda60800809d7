//===- UnprototypedCalls.h - Calls through K&R pointers ---------*- C++ -*-===//
//
// A call through a pointer declared without a prototype (`double
// (*func)()`, K&R C, Numerical Recipes' first edition, old netlib code)
// has, in clang's IR, the variadic type of its arguments: `double (double,
// ptr, ...)` with nothing after the named ones. Derivatives have fixed
// parameter lists, so such a call was refused as an indirect call of a
// variadic function, although what it calls is an ordinary function of
// those parameters. A call that passes nothing in its `...` becomes a call
// of the same parameters without it, which the dispatch of indirect calls
// handles like any other, where the module's functions whose address is
// taken have that type and none has the variadic one (a pointer to a
// variadic function, called with its named arguments only, stays as it is).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_UNPROTOTYPEDCALLS_H
#define CAPSULE_UNPROTOTYPEDCALLS_H

namespace llvm {
class Function;
} // namespace llvm

namespace capsule {

/// Gives \p F's indirect calls of a variadic type that pass no variadic
/// arguments the type of the arguments they pass.
void callUnprototypedPointersByArguments(llvm::Function &F);

} // namespace capsule

#endif // CAPSULE_UNPROTOTYPEDCALLS_H
