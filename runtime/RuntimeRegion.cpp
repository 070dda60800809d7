//===- RuntimeRegion.cpp - Per-thread region of runtime memory and shadows ===//
//
// One mapping per thread holds the frame stack, the arena and their two
// shadow spans, so a shadow is a fixed offset from its primal whichever of
// the two it belongs to. The frame stack and the arena commit their parts of
// the primal span themselves (FrameStack.cpp, Arena.cpp); this file reserves
// the mapping, makes the shadow spans usable and releases what it can when
// the thread exits.
//===----------------------------------------------------------------------===//
#include "RuntimeRegion.h"
#include "Arena.h"
#include "Config.h"
#include "FrameStack.h"
#include "Support.h"
#include "ThreadExit.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

// Written once, under ReserveMutex, by the first thread that reserves; read
// with atomic loads since generated code and other threads read it freely.
uint64_t __capsule_region_span = 0;
__thread char *__capsule_region_base __attribute__((tls_model("initial-exec")));
char *__capsule_sink_base = nullptr;

namespace capsule {
namespace {

struct ThreadRegion {
  char *Base;    // null until reserved; kept when the frame stack is released
  bool Released; // the frame stack part and the shadow spans are unmapped
  bool CleanupRegistered;
};

__thread ThreadRegion ThisThread;
pthread_mutex_t ReserveMutex = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t SinkMutex = PTHREAD_MUTEX_INITIALIZER;

constexpr int MapFlags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;

uint64_t span() {
  return __atomic_load_n(&__capsule_region_span, __ATOMIC_ACQUIRE);
}

// Runs at thread exit with the exiting thread's TLS still in place. The
// frame stack is dead with the thread's capsules; the arena's blocks may
// still be used by other threads, so frameStackFree() leaves them alone.
void freeThreadRegion(void *) {
  frameStackFree();
  ThisThread.CleanupRegistered = false;
}

void registerCleanup(ThreadRegion &R) {
  if (R.CleanupRegistered)
    return;
  runAtThreadExit<freeThreadRegion>(&R);
  R.CleanupRegistered = true;
}

// Writable spans this large would make a core dump walk hundreds of GiB of
// untouched pages; the shadows are not worth it. Failure only costs that.
void excludeFromCoreDumps(char *P, uint64_t Bytes) {
  madvise(P, Bytes, MADV_DONTDUMP);
}

// 3 * Span bytes, the upper two spans readable and writable, or null.
char *tryReserve(uint64_t Span) {
  uint64_t Total;
  if (__builtin_mul_overflow(Span, uint64_t(3), &Total))
    return nullptr;
  void *Base = mmap(nullptr, Total, PROT_NONE, MapFlags, -1, 0);
  if (Base == MAP_FAILED)
    return nullptr;
  char *B = static_cast<char *>(Base);
  // With strict overcommit accounting the kernel may charge writable spans
  // despite MAP_NORESERVE and refuse; a smaller arena may still fit.
  if (mprotect(B + Span, 2 * Span, PROT_READ | PROT_WRITE) != 0) {
    munmap(B, Total);
    return nullptr;
  }
  excludeFromCoreDumps(B + Span, 2 * Span);
  return B;
}

[[noreturn]] void failFirstReservation(uint64_t FrameBytes) {
  std::fprintf(stderr,
               "capsule: cannot reserve address space for interruptible "
               "execution: %s of frame stack and at least %s of allocation "
               "arena, three times over (for their adjoints and pointer "
               "shadows); set CAPSULE_FRAME_STACK to a smaller size\n",
               formatBytes(FrameBytes, 1).Text,
               formatBytes(MinArenaBytes, 1).Text);
  std::exit(3);
}

[[noreturn]] void failLaterReservation(uint64_t Span) {
  std::fprintf(stderr,
               "capsule: cannot reserve %s of address space for this "
               "thread's frame stack, allocation arena and their shadows "
               "(three times %s, the size the first thread reserved): the "
               "process is out of address space; use fewer threads for "
               "interruptible execution, or set CAPSULE_FRAME_STACK to a "
               "smaller size\n",
               formatBytes(3 * Span, 1).Text, formatBytes(Span, 1).Text);
  std::exit(3);
}

[[noreturn]] void failRemap() {
  std::fprintf(stderr,
               "capsule: cannot map this thread's frame stack and shadows "
               "again after its exit cleanup released them: their addresses "
               "are taken\n");
  std::exit(3);
}

void reserve(ThreadRegion &R) {
  // Outside the lock: it may stop the program on an invalid setting.
  uint64_t FrameBytes = frameStackReservation();
  MutexLock Lock(ReserveMutex);
  uint64_t Span = span();
  char *Base = nullptr;
  if (Span) {
    // Every thread's shadows are at the same offset, which generated code
    // may know only as one number.
    Base = tryReserve(Span);
    if (!Base)
      failLaterReservation(Span);
  } else {
    for (uint64_t Arena = PreferredArenaBytes; Arena >= MinArenaBytes;
         Arena /= 2) {
      if (__builtin_add_overflow(FrameBytes, Arena, &Span))
        continue;
      Base = tryReserve(Span);
      if (Base)
        break;
    }
    if (!Base)
      failFirstReservation(FrameBytes);
    __atomic_store_n(&__capsule_region_span, Span, __ATOMIC_RELEASE);
  }
  R.Base = Base;
  R.Released = false;
  __capsule_region_base = Base;
  registerCleanup(R);
}

// Maps Bytes at exactly At, or returns false.
bool mapAt(char *At, uint64_t Bytes, int Protection) {
  void *P = mmap(At, Bytes, Protection, MapFlags | MAP_FIXED_NOREPLACE, -1, 0);
  if (P == MAP_FAILED)
    return false;
  // A kernel older than MAP_FIXED_NOREPLACE takes At as a mere hint.
  if (P != At) {
    munmap(P, Bytes);
    return false;
  }
  return true;
}

// A key destructor that runs after ours may use the frame stack again.
void remap(ThreadRegion &R) {
  uint64_t Span = span();
  if (!mapAt(R.Base, frameStackReservation(), PROT_NONE) ||
      !mapAt(R.Base + Span, 2 * Span, PROT_READ | PROT_WRITE))
    failRemap();
  excludeFromCoreDumps(R.Base + Span, 2 * Span);
  R.Released = false;
  __capsule_region_base = R.Base;
  registerCleanup(R);
}

ThreadRegion &region() {
  ThreadRegion &R = ThisThread;
  if (__builtin_expect(!R.Base, 0))
    reserve(R);
  return R;
}

} // namespace

char *regionFrameStack() {
  ThreadRegion &R = region();
  if (__builtin_expect(R.Released, 0))
    remap(R);
  return R.Base;
}

char *regionArena() { return region().Base + frameStackReservation(); }

uint64_t regionArenaBytes() {
  region();
  return span() - frameStackReservation();
}

void releaseRegionFrameStackAndShadows() {
  ThreadRegion &R = ThisThread;
  if (!R.Base || R.Released)
    return;
  uint64_t Span = span();
  munmap(R.Base, frameStackReservation());
  munmap(R.Base + Span, 2 * Span);
  R.Released = true;
  __capsule_region_base = nullptr;
}

void reserveSink() {
  if (__atomic_load_n(&__capsule_sink_base, __ATOMIC_ACQUIRE))
    return;
  MutexLock Lock(SinkMutex);
  if (__capsule_sink_base)
    return;
  uint64_t Bytes = SinkBytes;
  void *Base = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MapFlags, -1, 0);
  if (Base == MAP_FAILED) {
    std::fprintf(stderr,
                 "capsule: cannot reserve %s of address space for the sink "
                 "(where gradients drop the adjoints of memory that has "
                 "none); the address space is limited (ulimit -v, or a tool "
                 "such as valgrind)\n",
                 formatBytes(Bytes, 1).Text);
    std::exit(3);
  }
  excludeFromCoreDumps(static_cast<char *>(Base), Bytes);
  __atomic_store_n(&__capsule_sink_base, static_cast<char *>(Base),
                   __ATOMIC_RELEASE);
}

} // namespace capsule

extern "C" void *__capsule_sink_of(const void *P) {
  capsule::reserveSink();
  return capsule::sinkPlace(__capsule_sink_base, P);
}

extern "C" void __capsule_sink_fill(void *Shadow, const void *Src,
                                    uint64_t Bytes) {
  for (uint64_t At = 0; At + sizeof(void *) <= Bytes; At += sizeof(void *)) {
    void *P;
    std::memcpy(&P, static_cast<const char *>(Src) + At, sizeof P);
    void *S = P ? __capsule_sink_of(P) : nullptr;
    std::memcpy(static_cast<char *>(Shadow) + At, &S, sizeof S);
  }
}
