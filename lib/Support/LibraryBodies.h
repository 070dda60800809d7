//===- LibraryBodies.h - Definitions of library functions Capsule brings -===//
//
// A few functions that programs reach through their libraries' headers are
// compiled into the shared library (libstdc++'s red-black tree and list
// node links, its gslice indexer): declared only, their effect on shadow
// memory is unknown. Capsule carries their definitions (lib/LibraryBodies/)
// and gives them to the module, which then differentiates and instruments
// them as its own. It carries the runtime's BLAS rules the same way, for
// derivatives of derivatives to differentiate.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LIBRARYBODIES_H
#define CAPSULE_LIBRARYBODIES_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace capsule {

/// Defines, as internal functions of \p M, the library functions \p M
/// declares and Capsule has bodies for. The program's other calls of them
/// then run these bodies too, which behave as the library's own. Nothing
/// happens for a module of another target than the bodies' (x86-64 Linux):
/// the calls stay declarations, refused where active data reach them.
void supplyLibraryBodies(llvm::Module &M);

/// Makes \p F's calls of Capsule's built-in rules of library routines (the
/// BLAS rules a derivative's generated code calls) call definitions of the
/// rules in \p F's module instead of the runtime's, linked in once: a
/// derivative of code that computes derivatives (forward over reverse,
/// reverse over reverse, ...) then differentiates the rules as code of its
/// own, their BLAS calls through the routines' rules. The definitions are
/// the runtime's rules compiled with plain heap blocks for their copies
/// (runtime/blas/Blas.h); rules without one, and modules of another target,
/// keep the runtime's calls, which derivatives refuse.
void callRuleBodies(llvm::Function &F);

/// The name of the rule whose definition callRuleBodies linked as \p Name,
/// or nothing: messages name the routine the rule stands for.
std::optional<llvm::StringRef> ruleOfBody(llvm::StringRef Name);

} // namespace capsule

#endif
