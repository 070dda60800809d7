//===- Shadow.cpp - Shadows of heap blocks allocated by differentiated code
//===//
//
// Each shadow carries a header before the bytes it hands out: the size (for
// realloc), whether the primal block was freed, and a mark that tells the
// runtime's blocks from shadows the program allocated itself (a dup
// argument's heap block, freed or reallocated by the function): those are
// the program's, and nothing is written before them. A multiple of 16
// bytes keeps the shadow as aligned as malloc's blocks. The mark lies where
// glibc keeps the high half of a block's size, which is 0 below 4 GiB.
//
// A green run's untaped sweep (GreenRun.h) never allocates here: it is
// checkpointed code, which derives heap shadows from arena addresses and
// takes the shadows of stack slots from the scratch shadows. An allocation
// in a green run is an internal error: no reverse sweep would free it, and a
// later run from a capsule would not find it.
//===----------------------------------------------------------------------===//
#include "Config.h"
#include "GreenRun.h"
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr uint32_t ShadowMark = 0xca95d1f7;

struct alignas(16) ShadowHeader {
  uint64_t Bytes;
  uint32_t PrimalFreed;
  uint32_t Mark;
};
static_assert(sizeof(ShadowHeader) % 16 == 0, "shadows are 16-byte aligned");

ShadowHeader *headerOf(void *Shadow) {
  return static_cast<ShadowHeader *>(Shadow) - 1;
}

/// Whether \p Shadow is a block of the shadow heap (not null, not the
/// program's).
bool onShadowHeap(void *Shadow) {
  return Shadow && headerOf(Shadow)->Mark == ShadowMark;
}

[[noreturn]] void outOfMemory(uint64_t Bytes) {
  fprintf(stderr,
          "capsule: out of memory allocating a %llu-byte shadow block for "
          "the gradient\n",
          static_cast<unsigned long long>(Bytes));
  exit(3);
}

template <typename T> void addPrefix(void *Old, void *New) {
  if (!Old || !New)
    return;
  uint64_t Bytes = headerOf(Old)->Bytes < headerOf(New)->Bytes
                       ? headerOf(Old)->Bytes
                       : headerOf(New)->Bytes;
  T *DOld = static_cast<T *>(Old);
  T *DNew = static_cast<T *>(New);
  for (uint64_t I = 0, N = Bytes / sizeof(T); I != N; ++I) {
    DOld[I] += DNew[I];
    DNew[I] = 0;
  }
}

} // namespace

extern "C" void *__capsule_shadow_alloc(uint64_t Bytes) {
  if (__builtin_expect(capsule::inGreenRun(), 0))
    capsule::failInternal("a shadow was allocated on the shadow heap in a "
                          "green run (%llu bytes)",
                          static_cast<unsigned long long>(Bytes));
  auto *H =
      static_cast<ShadowHeader *>(calloc(1, sizeof(ShadowHeader) + Bytes));
  if (!H)
    outOfMemory(Bytes);
  H->Bytes = Bytes;
  H->Mark = ShadowMark;
  return H + 1;
}

extern "C" void *__capsule_shadow_realloc(void *OldShadow, uint64_t Bytes) {
  if (OldShadow && !onShadowHeap(OldShadow)) {
    fprintf(stderr,
            "capsule: the differentiated function reallocates a heap block "
            "whose shadow the program allocated (the shadow of a dup "
            "argument's block): its size is unknown here, so its adjoints "
            "cannot move to the new block; allocate the block inside the "
            "function, or reallocate it before the call\n");
    exit(3);
  }
  void *New = __capsule_shadow_alloc(Bytes);
  if (OldShadow) {
    uint64_t Old = headerOf(OldShadow)->Bytes;
    memcpy(New, OldShadow, Old < Bytes ? Old : Bytes);
    // realloc freed the old primal block.
    headerOf(OldShadow)->PrimalFreed = 1;
  }
  return New;
}

extern "C" void __capsule_realloc_adjoint_f64(void *Old, void *New) {
  addPrefix<double>(Old, New);
}

extern "C" void __capsule_realloc_adjoint_f32(void *Old, void *New) {
  addPrefix<float>(Old, New);
}

extern "C" void __capsule_realloc_copy_prefix(void *From, void *To) {
  if (!From || !To)
    return;
  uint64_t Old = headerOf(From)->Bytes, New = headerOf(To)->Bytes;
  memcpy(To, From, Old < New ? Old : New);
}

// A shadow the program allocated stays the program's.
extern "C" void __capsule_shadow_note_free(void *Shadow) {
  if (onShadowHeap(Shadow))
    headerOf(Shadow)->PrimalFreed = 1;
}

extern "C" void __capsule_shadow_release(void *Shadow) {
  if (onShadowHeap(Shadow) && headerOf(Shadow)->PrimalFreed)
    free(headerOf(Shadow));
}

extern "C" void __capsule_shadow_free(void *Shadow) {
  if (onShadowHeap(Shadow))
    free(headerOf(Shadow));
}
