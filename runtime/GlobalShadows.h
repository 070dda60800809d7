//===- GlobalShadows.h - Pointers in globals without a known shadow -------===//
//
// A pointer the program stored in a global before a gradient call gets the
// shadow of what it points to (GlobalShadows.cpp). Where that memory has
// none Capsule knows of (a heap block the caller made, neither a dup
// argument nor a global), the pointer's shadow is its place in the trap: a
// reserved, inaccessible region laid out like the sink. If the
// differentiated code then goes through the pointer, the fault lands in the
// trap and the SIGSEGV guard (StackGuard.cpp) stops the program with a
// message naming the global, instead of a crash or a silently wrong
// gradient.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_GLOBALSHADOWS_H
#define CAPSULE_RUNTIME_GLOBALSHADOWS_H

#include <cstdint>

namespace capsule {

/// Whether \p Fault is an access through such a pointer's shadow; if so,
/// writes the message (async-signal-safe).
bool reportUnshadowedPointerFault(uintptr_t Fault);

} // namespace capsule

#endif
