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

thread_local char *TangentSink = nullptr;
thread_local bool TangentSinkUsed = false;

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

bool inTangentSink(const void *P) {
  auto *C = static_cast<const char *>(P);
  return TangentSink && C >= TangentSink &&
         C < TangentSink + capsule::SinkBytes;
}

} // namespace

extern "C" void __capsule_tangent_begin(void) {
  if (!TangentSinkUsed)
    return;
  // Dropping the pages makes them read as zero again.
  madvise(TangentSink, capsule::SinkBytes, MADV_DONTNEED);
  TangentSinkUsed = false;
}

extern "C" void *__capsule_tangent_sink_of(const void *P) {
  if (!TangentSink)
    TangentSink = reserveTangentSink();
  TangentSinkUsed = true;
  return capsule::sinkPlace(TangentSink, P);
}

extern "C" void __capsule_tangent_sink_fill(void *Shadow, const void *Src,
                                            uint64_t Bytes) {
  for (uint64_t At = 0; At + sizeof(void *) <= Bytes; At += sizeof(void *)) {
    void *P;
    std::memcpy(&P, static_cast<const char *>(Src) + At, sizeof P);
    void *S = P ? __capsule_tangent_sink_of(P) : nullptr;
    std::memcpy(static_cast<char *>(Shadow) + At, &S, sizeof S);
  }
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
