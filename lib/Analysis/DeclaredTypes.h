//===- DeclaredTypes.h - What the source declares a pointer to --*- C++ -*-===//
//
// Code compiled at -O0 has no TBAA, and a copy made inside a library's
// generic code (std::function cloning its functor out of untyped storage)
// shows no access that types the bytes it moves. The program's debug
// information still says what the pointer it copies through was declared
// to point to: the last evidence MemoryKinds turns to.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_DECLAREDTYPES_H
#define CAPSULE_DECLAREDTYPES_H

#include "Analysis/MemoryKinds.h"

namespace llvm {
class Value;
} // namespace llvm

namespace capsule {

/// The floating-point and pointer stretches of the \p Bytes bytes at
/// \p Ptr (offsets from \p Ptr; integers and padding between), by the
/// type the source declared \p Ptr to point to: the debug type of the
/// variable or parameter \p Ptr is, or is reloaded from at -O0, the
/// declared result of the function whose call \p Ptr is, or the declared
/// type of the member or element \p Ptr is loaded from (`out[j]` of a
/// `double **out`, `p->rows` of a `struct grid *p`); \p Bytes
/// 0 stands for its size. None where that type is unknown, smaller than
/// \p Bytes or says nothing: no debug information, `void *` and character
/// pointers (any bytes), unions, incomplete types, flexible array members,
/// long double, members pointers, virtual bases.
std::optional<llvm::SmallVector<MemoryRun, 4>>
declaredRunsUnder(const llvm::Value *Ptr, uint64_t Bytes);

} // namespace capsule

#endif // CAPSULE_DECLAREDTYPES_H
