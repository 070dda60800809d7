//===- Diagnostics.h - Compile-time errors of the Capsule pass --*- C++ -*-===//
//
// Everything the pass cannot differentiate correctly is reported as a
// compile-time error naming the function, the instruction and the source
// line, never turned into a silent wrong gradient.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_DIAGNOSTICS_H
#define CAPSULE_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"

namespace llvm {
class Function;
class GlobalValue;
class Instruction;
class LLVMContext;
} // namespace llvm

namespace capsule {

/// Where a problem with a whole function is reported: its first
/// instruction with a source location of its own (not inlined), else with
/// any, if there is one.
llvm::Instruction &firstLocatedInstruction(llvm::Function &F);

/// Reports that \p I (inside the function being differentiated) cannot be
/// differentiated. \p Origin is the user's function the instruction came from
/// (the pass works on clones, whose names users never wrote).
void reportUnsupported(const llvm::Instruction &I, const llvm::Function &Origin,
                       const llvm::Twine &Why);

/// Reports that \p I cannot be made interruptible (__capsule_interrupt and
/// kin).
void reportNotInterruptible(const llvm::Instruction &I,
                            const llvm::Function &Origin,
                            const llvm::Twine &Why);

/// Warns that \p I, in code made interruptible, has effects that resuming a
/// capsule repeats.
void warnRepeatedEffect(const llvm::Instruction &I,
                        const llvm::Function &Origin, const llvm::Twine &Why);

/// Reports a malformed marker call (a call to __capsule_autodiff and kin).
void reportBadMarkerCall(const llvm::Instruction &Call, const llvm::Twine &Why);

/// Reports a use of an API name Capsule does not implement, at instruction
/// \p I or, where no instruction names it, for the whole module.
void reportUnimplementedApi(const llvm::Instruction *I, const llvm::Twine &Why);
void reportUnimplementedApi(llvm::LLVMContext &C, const llvm::Twine &Why);

/// Whether an error was reported in context \p C: the compilation fails,
/// and code whose generation stopped at the error may be unfinished.
bool errorsReported(const llvm::LLVMContext &C);

/// "file:line: " of a global's definition, when debug info has it.
std::string definitionSite(const llvm::GlobalValue &GV);
/// The user-facing name of a function (demangled C++ name when possible).
std::string displayName(const llvm::Function &F);

} // namespace capsule

#endif
