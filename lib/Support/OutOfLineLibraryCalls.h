//===- OutOfLineLibraryCalls.h - Library members kept as calls -*- C++ -*-===//
//
// libstdc++'s char strings copy their characters with untyped memcpys,
// which Capsule tells from copies of numbers by the member they are in
// (MemoryKinds.h). Compiled as C++17 the members are calls into the shared
// library (its explicit instantiations) or bodies given only for inlining;
// compiled as C++20 their bodies are the program's. Inlined into the
// functions Capsule differentiates, nothing tells what their copies move.
// In a file that differentiates, they are the file's own and kept out of
// line, as are Eigen's packet math functions (EigenPacketMath.h), which
// only as calls can become the libm functions they approximate.
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
