//===- Shadow.cpp - Shadows of heap blocks allocated by differentiated code
//===//
//
// A shadow block is a plain calloc'ed block, so that one a gradient hands
// to the program (the shadow of a block the function allocated and kept: a
// dup object's std::vector grown by push_back) can be freed, or deleted, by
// the program like the block it shadows. What the runtime knows of its
// blocks lies aside, keyed by address: the size (for realloc) and whether
// the primal block was freed. A shadow not there is the program's (the
// shadow of a dup argument's block, freed inside the function): the
// runtime leaves it alone. A block leaves the table when the reverse sweep
// passes its allocation, the last time this gradient uses it: freed if its
// primal was, else handed to the program, so that a later block the
// program allocates at that address is never taken for the runtime's.
//
// A green run's untaped sweep (GreenRun.h) never allocates here: it is
// checkpointed code, which derives heap shadows from arena addresses and
// takes the shadows of stack slots from the scratch shadows. An allocation
// in a green run is an internal error: no reverse sweep would free it, and a
// later run from a capsule would not find it.
//===----------------------------------------------------------------------===//
#include "Config.h"
#include "GreenRun.h"
#include "Support.h"
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

/// The runtime's shadow blocks: an open-addressing hash map from address
/// to size and primal-freed mark (0 marks an empty slot), linear probing,
/// at most half full, entries shifted back on removal. Threads of a
/// parallel region allocate and release blocks too: one mutex guards it.
struct ShadowBlocks {
  pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
  uintptr_t *Keys = nullptr;
  uint64_t *Bytes = nullptr;
  bool *PrimalFreed = nullptr;
  uint64_t Mask = 0; // capacity - 1
  uint64_t Count = 0;

  uint64_t home(uintptr_t Key) const {
    return ((Key >> 4) * 0x9E3779B97F4A7C15ull >> 20) & Mask;
  }
  /// The slot of \p Key, or of the empty slot where it would go.
  uint64_t slotOf(uintptr_t Key) const {
    uint64_t I = home(Key);
    while (Keys[I] && Keys[I] != Key)
      I = (I + 1) & Mask;
    return I;
  }
  void grow();
  void insert(uintptr_t Key, uint64_t Size);
  /// The slot holding \p Key, or -1.
  int64_t find(uintptr_t Key) const {
    if (!Keys || !Key)
      return -1;
    uint64_t I = slotOf(Key);
    return Keys[I] ? static_cast<int64_t>(I) : -1;
  }
  void erase(uint64_t I);
};

[[noreturn]] void outOfMemory(uint64_t Bytes);

void ShadowBlocks::grow() {
  uint64_t OldCap = Keys ? Mask + 1 : 0, Cap = OldCap ? 2 * OldCap : 1024;
  uintptr_t *OldKeys = Keys;
  uint64_t *OldBytes = Bytes;
  bool *OldFreed = PrimalFreed;
  Keys = static_cast<uintptr_t *>(calloc(Cap, sizeof(uintptr_t)));
  Bytes = static_cast<uint64_t *>(calloc(Cap, sizeof(uint64_t)));
  PrimalFreed = static_cast<bool *>(calloc(Cap, sizeof(bool)));
  if (!Keys || !Bytes || !PrimalFreed)
    outOfMemory(Cap * 17);
  Mask = Cap - 1;
  for (uint64_t I = 0; I < OldCap; ++I)
    if (OldKeys[I]) {
      uint64_t J = slotOf(OldKeys[I]);
      Keys[J] = OldKeys[I];
      Bytes[J] = OldBytes[I];
      PrimalFreed[J] = OldFreed[I];
    }
  free(OldKeys);
  free(OldBytes);
  free(OldFreed);
}

void ShadowBlocks::insert(uintptr_t Key, uint64_t Size) {
  if (!Keys || 2 * (Count + 1) > Mask + 1)
    grow();
  uint64_t I = slotOf(Key);
  Count += !Keys[I];
  Keys[I] = Key;
  Bytes[I] = Size;
  PrimalFreed[I] = false;
}

void ShadowBlocks::erase(uint64_t I) {
  Keys[I] = 0;
  --Count;
  // Entries after the hole whose probe passed it move into it.
  for (uint64_t J = (I + 1) & Mask; Keys[J]; J = (J + 1) & Mask) {
    uint64_t Home = home(Keys[J]);
    bool Stays = I <= J ? (I < Home && Home <= J) : (I < Home || Home <= J);
    if (Stays)
      continue;
    Keys[I] = Keys[J];
    Bytes[I] = Bytes[J];
    PrimalFreed[I] = PrimalFreed[J];
    Keys[J] = 0;
    I = J;
  }
}

ShadowBlocks Blocks;

/// The size of the runtime's block \p Shadow; false for null and for
/// memory the program allocated.
bool sizeOf(void *Shadow, uint64_t &Size) {
  capsule::MutexLock Guard(Blocks.Lock);
  int64_t I = Blocks.find(reinterpret_cast<uintptr_t>(Shadow));
  if (I < 0)
    return false;
  Size = Blocks.Bytes[I];
  return true;
}

[[noreturn]] void outOfMemory(uint64_t Bytes) {
  fprintf(stderr,
          "capsule: out of memory allocating a %llu-byte shadow block for "
          "the gradient\n",
          static_cast<unsigned long long>(Bytes));
  exit(3);
}

template <typename T> void addPrefix(void *Old, void *New) {
  uint64_t OldBytes, NewBytes;
  if (!sizeOf(Old, OldBytes) || !sizeOf(New, NewBytes))
    return;
  uint64_t Bytes = OldBytes < NewBytes ? OldBytes : NewBytes;
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
  void *Shadow = calloc(1, Bytes ? Bytes : 1);
  if (!Shadow)
    outOfMemory(Bytes);
  capsule::MutexLock Guard(Blocks.Lock);
  Blocks.insert(reinterpret_cast<uintptr_t>(Shadow), Bytes);
  return Shadow;
}

extern "C" void *__capsule_shadow_realloc(void *OldShadow, uint64_t Bytes) {
  uint64_t OldBytes = 0;
  if (OldShadow && !sizeOf(OldShadow, OldBytes)) {
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
    memcpy(New, OldShadow, OldBytes < Bytes ? OldBytes : Bytes);
    // realloc freed the old primal block.
    __capsule_shadow_note_free(OldShadow);
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
  uint64_t Old, New;
  if (!sizeOf(From, Old) || !sizeOf(To, New))
    return;
  memcpy(To, From, Old < New ? Old : New);
}

// A shadow the program allocated stays the program's.
extern "C" void __capsule_shadow_note_free(void *Shadow) {
  capsule::MutexLock Guard(Blocks.Lock);
  if (int64_t I = Blocks.find(reinterpret_cast<uintptr_t>(Shadow)); I >= 0)
    Blocks.PrimalFreed[I] = true;
}

extern "C" void __capsule_shadow_release(void *Shadow) {
  bool Free;
  {
    capsule::MutexLock Guard(Blocks.Lock);
    int64_t I = Blocks.find(reinterpret_cast<uintptr_t>(Shadow));
    if (I < 0)
      return;
    Free = Blocks.PrimalFreed[I];
    Blocks.erase(I);
  }
  if (Free)
    free(Shadow);
}

extern "C" void __capsule_shadow_free(void *Shadow) {
  {
    capsule::MutexLock Guard(Blocks.Lock);
    int64_t I = Blocks.find(reinterpret_cast<uintptr_t>(Shadow));
    if (I < 0)
      return;
    Blocks.erase(I);
  }
  free(Shadow);
}
