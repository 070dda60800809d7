//===- PointerShadows.cpp - Pointer shadows of checkpointed code ----------===//
//
// Entry points that the forward sweeps of the checkpointed gradient call
// where a pointer's shadow cannot be kept in a register: copies of memory
// that may hold pointers, and realloc, which generated code takes apart so
// that the shadows follow the copy.
//===----------------------------------------------------------------------===//
#include "Arena.h"
#include "Journal.h"
#include "RuntimeRegion.h"
#include "abi.h"

#include <cstring>

using namespace capsule;

namespace {

// Where the pointer shadows of memory at P are: beside it in the region, or
// wherever generated code keeps them for memory outside it.
inline char *pointerShadowSlot(const void *P, const void *Given) {
  if (inRuntimeRegion(P))
    return const_cast<char *>(static_cast<const char *>(P)) +
           2 * __capsule_region_span;
  return const_cast<char *>(static_cast<const char *>(Given));
}

} // namespace

extern "C" void __capsule_copy_pointer_shadows(void *Dst, void *DstShadow,
                                               const void *Src,
                                               const void *SrcShadow,
                                               uint64_t Bytes) {
  char *To = pointerShadowSlot(Dst, DstShadow);
  if (!To || !Bytes)
    return;
  const char *From = pointerShadowSlot(Src, SrcShadow);
  // Pointer shadows are rolled back with capsules like the primal memory
  // they describe.
  journalWrite(To, Bytes);
  if (From)
    std::memmove(To, From, Bytes);
  else
    std::memset(To, 0, Bytes);
}

extern "C" uint64_t __capsule_arena_usable_size(const void *Block) {
  return reallocUsableSize(Block);
}
