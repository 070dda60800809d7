//===- LibcMemoryCalls.h - memcpy and kin called by name --------*- C++ -*-===//
//
// Clang calls memcpy, memmove and memset as intrinsics, which the sweeps
// know. It calls them as the C library's functions under -fno-builtin and
// -ffreestanding, and as glibc's checked variants (__memcpy_chk, with the
// destination's size) under _FORTIFY_SOURCE, which distributions turn on
// by default: those were refused as calls without a body. Each becomes the
// intrinsic; a checked call keeps its check (__chk_fail where the length
// exceeds the destination's size).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LIBCMEMORYCALLS_H
#define CAPSULE_LIBCMEMORYCALLS_H

namespace llvm {
class Function;
} // namespace llvm

namespace capsule {

/// Replaces \p F's calls of the C library's memcpy, memmove and memset and
/// of their _FORTIFY_SOURCE variants by the intrinsics.
void callMemoryIntrinsics(llvm::Function &F);

} // namespace capsule

#endif // CAPSULE_LIBCMEMORYCALLS_H
