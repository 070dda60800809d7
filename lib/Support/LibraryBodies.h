//===- LibraryBodies.h - Definitions of library functions Capsule brings -===//
//
// A few functions that programs reach through their libraries' headers are
// compiled into the shared library (libstdc++'s red-black tree and list
// node links, its gslice indexer): declared only, their effect on shadow memory is unknown.
// Capsule carries their definitions (lib/LibraryBodies/) and gives them to
// the module, which then differentiates and instruments them as its own.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LIBRARYBODIES_H
#define CAPSULE_LIBRARYBODIES_H

namespace llvm {
class Module;
}

namespace capsule {

/// Defines, as internal functions of \p M, the library functions \p M
/// declares and Capsule has bodies for. The program's other calls of them
/// then run these bodies too, which behave as the library's own. Nothing
/// happens for a module of another target than the bodies' (x86-64 Linux):
/// the calls stay declarations, refused where active data reach them.
void supplyLibraryBodies(llvm::Module &M);

} // namespace capsule

#endif
