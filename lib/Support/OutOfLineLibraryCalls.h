//===- OutOfLineLibraryCalls.h - Library members kept as calls -*- C++ -*-===//
//
// libstdc++'s char strings copy their characters with untyped memcpys,
// which Capsule tells from copies of numbers by the member they are in
// (MemoryKinds.h). Compiled as C++17 the members mostly are calls into the
// shared library (its explicit instantiations); compiled as C++20 their
// bodies are the program's, and the optimizer would inline them into the
// functions Capsule differentiates, where nothing tells what such a copy
// moves. In a file that differentiates, they are kept out of line.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_OUTOFLINELIBRARYCALLS_H
#define CAPSULE_OUTOFLINELIBRARYCALLS_H

namespace llvm {
class Module;
} // namespace llvm

namespace capsule {

/// Marks \p M's definitions of those members noinline; true if any was.
bool keepLibraryCallsOutOfLine(llvm::Module &M);

} // namespace capsule

#endif
