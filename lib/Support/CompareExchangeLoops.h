//===- CompareExchangeLoops.h - _Atomic updates as atomicrmw ----*- C++ -*-===//
#ifndef CAPSULE_COMPAREEXCHANGELOOPS_H
#define CAPSULE_COMPAREEXCHANGELOOPS_H

#include "llvm/IR/Function.h"

namespace capsule {

/// Replaces, in \p F (its stack slots promoted), each compare-exchange loop
/// that adds a value to (or subtracts it from) a floating-point variable,
/// as clang compiles `x += v` on an `_Atomic double`, by the atomicrmw fadd
/// (fsub) it computes.
void lowerCompareExchangeUpdates(llvm::Function &F);

} // namespace capsule

#endif
