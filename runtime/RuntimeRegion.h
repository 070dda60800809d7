//===- RuntimeRegion.h - Per-thread region of runtime memory and shadows --===//
//
// The checkpointed gradient differentiates step functions whose frames live
// on the frame stack and whose heap blocks come from the arena. Their
// adjoints, and the shadows of pointers stored in them, must be found from
// the primal address alone, so each thread reserves one region of three
// equal spans (abi.h, "Shadow spaces of runtime memory"):
//
//   Base:            the frame stack (frameStackReservation() bytes), then
//                    the arena: the primal span, committed as they grow
//   Base + Span:     adjoints of the primal span, at p + Span
//   Base + 2 * Span: pointer shadows of the primal span, at p + 2 * Span
//
// The two upper spans are readable and writable from the start; the kernel
// backs them with zero pages as they are touched. Span is the same for all
// threads: the first thread that reserves decides it.
//
// The process also has one sink: scratch adjoint space for memory that has
// no shadow (constant data), indexed by the low bits of the address.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_RUNTIMEREGION_H
#define CAPSULE_RUNTIME_RUNTIMEREGION_H

#include "abi.h"

#include <cstdint>

namespace capsule {

/// Bytes of the sink past CAPSULE_SINK_MASK + 1, so an object of up to this
/// size whose address is near the top of the mask still fits.
constexpr uint64_t SinkMarginBytes = uint64_t(1) << 34;
/// Bytes of a reservation laid out like the sink (the sink itself, and the
/// trap of GlobalShadows.h).
constexpr uint64_t SinkBytes = (CAPSULE_SINK_MASK + 1) + SinkMarginBytes;

/// The place of \p P in a reservation laid out like the sink at \p Base.
inline char *sinkPlace(char *Base, const void *P) {
  return Base + (reinterpret_cast<uintptr_t>(P) & CAPSULE_SINK_MASK);
}

/// Makes this thread's sink of the adjoints of places in the gradient's sink
/// (reverse mode over a gradient, Tangent.cpp) read as zero again: each
/// outer gradient call starts with it zero.
void clearAdjointPlaceSink();

/// The base of this thread's frame stack (the region's base), reserving the
/// region if this is the first use, or mapping the frame stack part and the
/// shadow spans again if the thread's exit cleanup released them. The frame
/// stack part is not committed.
char *regionFrameStack();

/// The first byte of this thread's arena part (reserving the region if this
/// is the first use) and its size. Not committed.
char *regionArena();
uint64_t regionArenaBytes();

/// Unmaps this thread's frame stack part and the two shadow spans of its
/// region; the arena part stays reserved, since its blocks may outlive the
/// thread. Afterwards __capsule_region_base is null. frameStackFree() calls
/// it; nothing may refer to the frame stack or the shadows any more.
void releaseRegionFrameStackAndShadows();

/// Whether P lies in the primal span of this thread's region, whose shadow
/// spans are mapped: then its adjoint is at P + __capsule_region_span and
/// the shadow of a pointer stored at P at P + 2 * __capsule_region_span.
inline bool inRuntimeRegion(const void *P) {
  char *Base = __capsule_region_base;
  return Base && uintptr_t(P) - uintptr_t(Base) <
                     __atomic_load_n(&__capsule_region_span, __ATOMIC_RELAXED);
}

/// Reserves the process's sink (once; later calls and other threads get the
/// same one) and sets __capsule_sink_base. Stops the program with exit
/// status 3 if the system refuses the address space.
void reserveSink();

} // namespace capsule

#endif // CAPSULE_RUNTIME_RUNTIMEREGION_H
