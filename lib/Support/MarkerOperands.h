//===- MarkerOperands.h - Marker call operands in SSA form ------*- C++ -*-===//
//
// At -O0 clang keeps every local variable in a stack slot, and Enzyme's C++
// interface (<enzyme/enzyme>) hands the function to differentiate, the
// activity markers and the values to the marker call through tuples: the
// call's operands are loads of stack slots, which the parser cannot read.
// The functions making such calls get SROA first, which forwards the stored
// values to the call as the optimizer does before the pass at -O1 and up.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_MARKEROPERANDS_H
#define CAPSULE_MARKEROPERANDS_H

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/PassManager.h"

namespace capsule {

/// Runs SROA on the functions containing one of \p Calls that reads an
/// operand from memory other than a global, and gives those calls the
/// values SROA found.
void promoteMarkerOperands(llvm::ArrayRef<llvm::CallBase *> Calls,
                           llvm::FunctionAnalysisManager &FAM);

} // namespace capsule

#endif
