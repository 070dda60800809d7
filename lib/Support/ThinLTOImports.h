//===- ThinLTOImports.h - What ThinLTO imports for derivatives --*- C++ -*-===//
//
// A ThinLTO link differentiates each file in a backend of its own, with
// the functions the link imported into it from other files. The link
// imports along the calls and references the files' summaries record, and
// not what is marked noinline; a derivative needs more: the function a
// marker call only names, every function an indirect call may reach (whose
// address a function takes, or finds in a variable it reads), everything
// those call, noinline or not, and the custom rules registered for them,
// which may live in any file. A ThinLTO compile therefore adds to each
// function a block that no branch reaches, whose calls and loads the
// summary reads as the function's callees and references:
//   - a call of each function it takes the address of or finds in a
//     variable this file initializes, and of `__capsule_funcs.V` for a
//     variable V of another file: the file that defines V defines that
//     function, calling those V holds (the others declare it weak);
//   - a load of `__capsule_rules.X` for each X it uses: the file that
//     registers rules for X defines that constant, a copy of its
//     registrations, which the link then imports (the others declare it
//     weak);
// and moves noinline (with the optnone that needs it) from the functions to
// metadata. The link (capsule-config --lto-ldflags) raises the import's
// size limit; in each backend, the link-time plugin erases the blocks, the
// functions and constants, recreates the registrations and gives the
// attributes back before anything else.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_THINLTOIMPORTS_H
#define CAPSULE_THINLTOIMPORTS_H

namespace llvm {
class Module;
} // namespace llvm

namespace capsule {

/// At the end of a ThinLTO compile that deferred its marker calls to the
/// link, once: what the link must import for \p M's derivatives and for
/// other files' derivatives of \p M's functions. (At the end: the
/// optimizer would delete the blocks and inline what was noinline.)
/// Whether it changed \p M.
bool requestThinLTOImports(llvm::Module &M);

/// At the link: undoes requestThinLTOImports.
void withdrawThinLTOImportRequests(llvm::Module &M);

} // namespace capsule

#endif
