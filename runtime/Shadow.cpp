//===- Shadow.cpp - Shadows of heap blocks allocated by differentiated code
//===//
//
// Each shadow carries a 16-byte header before the bytes it hands out: the
// size (for realloc) and whether the primal block was freed. 16 bytes keep
// the shadow as aligned as malloc's blocks.
//===----------------------------------------------------------------------===//
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

struct alignas(16) ShadowHeader {
  uint64_t Bytes;
  uint64_t PrimalFreed;
};

ShadowHeader *headerOf(void *Shadow) {
  return static_cast<ShadowHeader *>(Shadow) - 1;
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
  auto *H =
      static_cast<ShadowHeader *>(calloc(1, sizeof(ShadowHeader) + Bytes));
  if (!H)
    outOfMemory(Bytes);
  H->Bytes = Bytes;
  return H + 1;
}

extern "C" void *__capsule_shadow_realloc(void *OldShadow, uint64_t Bytes) {
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

extern "C" void __capsule_shadow_note_free(void *Shadow) {
  if (Shadow)
    headerOf(Shadow)->PrimalFreed = 1;
}

extern "C" void __capsule_shadow_release(void *Shadow) {
  if (Shadow && headerOf(Shadow)->PrimalFreed)
    free(headerOf(Shadow));
}

extern "C" void __capsule_shadow_free(void *Shadow) {
  if (Shadow)
    free(headerOf(Shadow));
}
