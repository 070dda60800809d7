//===- MemoryKinds.h - What kind of data a copy moves ------------*- C++ -*-===//
//
// memcpy/memmove/realloc are untyped, but their adjoints are not: float
// elements move adjoints back (dsrc += ddst), pointer elements copy shadow
// pointers forward, integers do neither. The kind is deduced from how the
// copied memory is typed where it is allocated and accessed.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_MEMORYKINDS_H
#define CAPSULE_MEMORYKINDS_H

namespace llvm {
class CallBase;
}

namespace capsule {

enum class ElementKind { F64, F32, Pointer, Integer, Unknown };

/// The kind of the elements copied by a memcpy/memmove, or carried over by
/// a realloc. Unknown when the evidence is missing or mixes floating-point
/// with other data.
ElementKind copiedElementKind(const llvm::CallBase &Call);

} // namespace capsule

#endif
