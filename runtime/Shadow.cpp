//===- Shadow.cpp - Shadows of heap blocks allocated by differentiated code
//===//
//
// Each shadow carries a header before the bytes it hands out: the size (for
// realloc), whether the primal block was freed, and links into the list of
// the shadows a green run allocated (GreenRun.h), which it frees at its end
// since their reverse sweep never comes. A multiple of 16 bytes keeps the
// shadow as aligned as malloc's blocks.
//===----------------------------------------------------------------------===//
#include "GreenRun.h"
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

struct alignas(16) ShadowHeader {
  uint64_t Bytes;
  uint32_t PrimalFreed;
  uint32_t Green; // on this thread's green list
  ShadowHeader *Next;
  ShadowHeader *Prev;
};
static_assert(sizeof(ShadowHeader) % 16 == 0, "shadows are 16-byte aligned");

// The shadows allocated in this thread's green run and not yet freed.
__thread ShadowHeader *GreenList;
__thread uint64_t GreenCount;
// Shadow blocks allocated and not freed on this thread, for tests.
__thread uint64_t LiveBlocks;

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

void unlinkGreen(ShadowHeader *H) {
  if (H->Prev)
    H->Prev->Next = H->Next;
  else
    GreenList = H->Next;
  if (H->Next)
    H->Next->Prev = H->Prev;
  H->Green = 0;
  --GreenCount;
}

void freeHeader(ShadowHeader *H) {
  if (H->Green)
    unlinkGreen(H);
  --LiveBlocks;
  free(H);
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
  ++LiveBlocks;
  if (__builtin_expect(capsule::inGreenRun(), 0)) {
    H->Green = 1;
    H->Next = GreenList;
    if (GreenList)
      GreenList->Prev = H;
    GreenList = H;
    ++GreenCount;
  }
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
    freeHeader(headerOf(Shadow));
}

extern "C" void __capsule_shadow_free(void *Shadow) {
  if (Shadow)
    freeHeader(headerOf(Shadow));
}

namespace capsule {

void freeGreenShadows() {
  while (GreenList)
    freeHeader(GreenList);
}

uint64_t liveGreenShadows() { return GreenCount; }

uint64_t liveShadowBlocks() { return LiveBlocks; }

} // namespace capsule
