//===- LibraryOutputs.h - What nondeterministic calls write -----*- C++ -*-===//
//
// The C library functions whose results depend on hidden state (random
// numbers, clocks, input) and what each writes through its pointer
// arguments. Their results carry no derivative; what they write replaces
// the memory's contents, so the reverse sweep drops the adjoints there; and
// interruptible code records and replays them (ReplayCalls.h).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LIBRARYOUTPUTS_H
#define CAPSULE_LIBRARYOUTPUTS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace capsule {

/// Bytes a library function writes through its pointer argument Arg:
/// Bytes, or, with a PerResultUnit, the result times argument PerResultUnit
/// (fread writes result * size bytes).
struct LibraryOutput {
  unsigned Arg;
  uint64_t Bytes;
  std::optional<unsigned> PerResultUnit = std::nullopt;
};

/// What the non-deterministic library function \p Name writes; none for
/// the other functions.
std::optional<llvm::SmallVector<LibraryOutput, 2>>
nondeterministicLibraryOutputs(llvm::StringRef Name);

/// The bytes \p O's argument received, given the call's result and its
/// arguments (\p Arg gives argument K as the code at \p B sees it).
llvm::Value *writtenBytes(llvm::IRBuilder<> &B, const LibraryOutput &O,
                          llvm::function_ref<llvm::Value *(unsigned)> Arg,
                          llvm::Value *Result);

} // namespace capsule

#endif
