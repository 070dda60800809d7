//===- Tangent.cpp - Shadow memory of forward-mode derivatives ------------===//
//
// Tangent blocks are ordinary heap blocks: they live as long as the primal
// block they mirror, which the program frees (or keeps: a block returned
// through a dup pointer comes back to the user with its tangent block).
// The tangent sink is per thread, so that forward-mode calls on several
// threads never clear each other's; each call clears it, only when it was
// used, with one madvise. An exception that leaves a call leaves nothing
// to undo.
//===----------------------------------------------------------------------===//
#include "RuntimeRegion.h"
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <sys/mman.h>

namespace {

// One sink per nesting level: the tangent of a place in level k's sink is
// the same place in level k + 1's (nested forward mode), so the
// perturbations of two levels never share a byte. One more, after them,
// holds the tangents of places in the gradient's sink (forward mode over a
// gradient): those places are keyed by sink addresses, which could collide
// with the program's addresses in any level's sink.
constexpr int SinkLevels = 8;
constexpr int PlaceTangentSink = SinkLevels;
// Reverse mode over a gradient: the adjoints of places in the gradient's
// sink, which read as zero at the start of every outer gradient call (not
// of forward-mode calls, which the outer call may make in between).
constexpr int PlaceAdjointSink = PlaceTangentSink + 1;
// Vector mode: lane k > 0 keeps its tangents in a sink of its own (lane 0
// in level 0's), so that lanes never share a byte.
constexpr int FirstLaneSink = PlaceAdjointSink + 1;
// Vector mode over a gradient: lane k > 0's tangents of places in the
// gradient's sink (lane 0's in PlaceTangentSink).
constexpr int FirstLanePlaceSink = FirstLaneSink + CAPSULE_MAX_LANES - 1;
constexpr int SinkCount = FirstLanePlaceSink + CAPSULE_MAX_LANES - 1;
thread_local char *TangentSinks[SinkCount];
thread_local bool TangentSinkUsed[SinkCount];

constexpr uint64_t TangentAlign = 64;

[[noreturn]] void outOfMemory(uint64_t Bytes) {
  std::fprintf(stderr,
               "capsule: out of memory allocating a %llu-byte tangent block "
               "for a forward-mode derivative\n",
               static_cast<unsigned long long>(Bytes));
  std::exit(3);
}

char *reserveTangentSink() {
  void *Base = mmap(nullptr, capsule::SinkBytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Base == MAP_FAILED) {
    std::fprintf(stderr,
                 "capsule: cannot reserve address space for the tangent "
                 "sink (where forward mode keeps the tangents of memory "
                 "that has no shadow); the address space is limited "
                 "(ulimit -v, or a tool such as valgrind)\n");
    std::exit(3);
  }
  madvise(Base, capsule::SinkBytes, MADV_DONTDUMP);
  return static_cast<char *>(Base);
}

/// Sink \p Index, reserved on first use and marked used.
char *usedSink(int Index) {
  if (!TangentSinks[Index])
    TangentSinks[Index] = reserveTangentSink();
  TangentSinkUsed[Index] = true;
  return TangentSinks[Index];
}

/// Level \p Level's sink, reserved on first use and marked used.
char *sinkOfLevel(int Level) {
  if (Level >= SinkLevels) {
    std::fprintf(stderr,
                 "capsule: forward mode nested more than %d levels deep "
                 "keeps tangents of memory without derivatives; the "
                 "runtime has %d tangent sinks\n",
                 SinkLevels, SinkLevels);
    std::exit(3);
  }
  return usedSink(Level);
}

/// The index of the sink holding \p P, or -1.
int sinkLevelOf(const void *P) {
  auto *C = static_cast<const char *>(P);
  for (int L = 0; L < SinkCount; ++L)
    if (TangentSinks[L] && C >= TangentSinks[L] &&
        C < TangentSinks[L] + capsule::SinkBytes)
      return L;
  return -1;
}

bool inTangentSink(const void *P) { return sinkLevelOf(P) >= 0; }

/// For each pointer slot of \p Src, its image under \p Place (null stays
/// null) in \p Shadow.
template <class PlaceFn>
void fillPlaces(void *Shadow, const void *Src, uint64_t Bytes, PlaceFn Place) {
  for (uint64_t At = 0; At + sizeof(void *) <= Bytes; At += sizeof(void *)) {
    void *P;
    std::memcpy(&P, static_cast<const char *>(Src) + At, sizeof P);
    void *S = P ? Place(P) : nullptr;
    std::memcpy(static_cast<char *>(Shadow) + At, &S, sizeof S);
  }
}

/// Dropping the pages makes them read as zero again.
void clearSink(int Index) {
  if (TangentSinkUsed[Index]) {
    madvise(TangentSinks[Index], capsule::SinkBytes, MADV_DONTNEED);
    TangentSinkUsed[Index] = false;
  }
}

} // namespace

extern "C" void __capsule_tangent_begin(void) {
  for (int L = 0; L < SinkCount; ++L)
    if (L != PlaceAdjointSink)
      clearSink(L);
}

void capsule::clearAdjointPlaceSink() { clearSink(PlaceAdjointSink); }

extern "C" void *__capsule_adjoint_of_sink_place(const void *Place) {
  return capsule::sinkPlace(usedSink(PlaceAdjointSink), Place);
}

extern "C" void __capsule_adjoint_sink_fill_places(void *Shadow,
                                                   const void *Src,
                                                   uint64_t Bytes) {
  fillPlaces(Shadow, Src, Bytes, [](const void *P) {
    return __capsule_adjoint_of_sink_place(__capsule_sink_of(P));
  });
}

extern "C" void *__capsule_tangent_sink_of(const void *P) {
  return capsule::sinkPlace(sinkOfLevel(0), P);
}

extern "C" void __capsule_tangent_sink_fill(void *Shadow, const void *Src,
                                            uint64_t Bytes) {
  fillPlaces(Shadow, Src, Bytes, __capsule_tangent_sink_of);
}

extern "C" void *__capsule_tangent_of_loaded_pointer(const void *Slot,
                                                     const void *P) {
  int Sink = sinkLevelOf(Slot);
  return Sink < 0 ? nullptr : capsule::sinkPlace(TangentSinks[Sink], P);
}

extern "C" void *__capsule_tangent_lane_sink_of(const void *P, uint64_t Lane) {
  return capsule::sinkPlace(
      Lane ? usedSink(FirstLaneSink + static_cast<int>(Lane) - 1)
           : sinkOfLevel(0),
      P);
}

extern "C" void __capsule_tangent_lane_sink_fill(void *Shadow, const void *Src,
                                                 uint64_t Bytes,
                                                 uint64_t Lane) {
  fillPlaces(Shadow, Src, Bytes, [Lane](const void *P) {
    return __capsule_tangent_lane_sink_of(P, Lane);
  });
}

extern "C" void *__capsule_tangent_nested_sink_of(const void *P) {
  return capsule::sinkPlace(sinkOfLevel(1), P);
}

extern "C" void __capsule_tangent_nested_sink_fill(void *Shadow,
                                                   const void *Src,
                                                   uint64_t Bytes) {
  fillPlaces(Shadow, Src, Bytes, __capsule_tangent_nested_sink_of);
}

extern "C" void *__capsule_tangent_sink_twin(const void *Place) {
  int Level = sinkLevelOf(Place);
  if (Level < 0)
    return __capsule_tangent_sink_of(Place);
  char *Next = sinkOfLevel(Level + 1);
  return Next + (static_cast<const char *>(Place) - TangentSinks[Level]);
}

extern "C" void __capsule_tangent_sink_fill_twin(void *Twin, const void *Places,
                                                 uint64_t Bytes) {
  fillPlaces(Twin, Places, Bytes, __capsule_tangent_sink_twin);
}

extern "C" void *__capsule_tangent_alloc(uint64_t Bytes) {
  void *P = nullptr;
  if (posix_memalign(&P, TangentAlign, Bytes ? Bytes : 1) != 0)
    outOfMemory(Bytes);
  std::memset(P, 0, Bytes);
  return P;
}

extern "C" void *__capsule_tangent_realloc(void *Shadow, uint64_t Bytes) {
  void *New = __capsule_tangent_alloc(Bytes);
  if (Shadow && !inTangentSink(Shadow)) {
    uint64_t Old = malloc_usable_size(Shadow);
    std::memcpy(New, Shadow, Old < Bytes ? Old : Bytes);
    std::free(Shadow);
  }
  return New;
}

extern "C" void __capsule_tangent_free(void *Shadow) {
  if (Shadow && !inTangentSink(Shadow))
    std::free(Shadow);
}

extern "C" void __capsule_tangent_arena_free(void *Shadow) {
  if (Shadow && !inTangentSink(Shadow))
    __capsule_free(Shadow);
}

extern "C" uint64_t __capsule_tangent_arena_usable_size(const void *Shadow) {
  if (!Shadow || inTangentSink(Shadow))
    return 0;
  return __capsule_arena_usable_size(Shadow);
}

extern "C" void *__capsule_tangent_lane_of_sink_place(const void *Place,
                                                      uint64_t Lane) {
  return capsule::sinkPlace(
      usedSink(Lane ? FirstLanePlaceSink + static_cast<int>(Lane) - 1
                    : PlaceTangentSink),
      Place);
}

extern "C" void __capsule_tangent_lane_sink_fill_places(void *Twin,
                                                        const void *Src,
                                                        uint64_t Bytes,
                                                        uint64_t Lane) {
  fillPlaces(Twin, Src, Bytes, [Lane](const void *P) {
    return __capsule_tangent_lane_of_sink_place(__capsule_sink_of(P), Lane);
  });
}

extern "C" void __capsule_defer_tangent_free(void *Shadow) {
  if (Shadow && !inTangentSink(Shadow))
    __capsule_defer_free(Shadow);
}
