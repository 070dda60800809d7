//===- RefusedCalls.h - Calls no derivative goes through -------*- C++ -*-===//
//
// Some library calls change how the program runs rather than what it
// computes: they start threads that run code the derivative never sees,
// jump back into frames (setjmp/longjmp), or stand for OpenMP constructs
// Capsule does not reverse. Whatever data they get, differentiated code
// must not contain them: the other checks, which look at the data, would
// let them through when it is inactive.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_REFUSEDCALLS_H
#define CAPSULE_REFUSEDCALLS_H

#include "llvm/IR/InstrTypes.h"

#include <optional>
#include <string>

namespace capsule {

/// Why \p Call cannot be in differentiated code; none for calls the other
/// checks judge.
std::optional<std::string> whyRefusedCall(const llvm::CallBase &Call);

} // namespace capsule

#endif
