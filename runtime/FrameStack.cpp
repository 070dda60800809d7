//===- FrameStack.cpp - Per-thread stack of resumable activation records --===//
//
// The frame stack is the first part of the thread's runtime region
// (RuntimeRegion.h), which reserves it and unmaps it at thread exit; this
// file commits it as frames reach further.
//===----------------------------------------------------------------------===//
#include "FrameStack.h"
#include "Config.h"
#include "RuntimeRegion.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

__thread char *__capsule_frame_limit __attribute__((tls_model("initial-exec")));

namespace capsule {
namespace {

struct ThreadFrameStack {
  char *Base;        // null until the first use
  uint64_t Reserved; // bytes of address space from Base
};

__thread ThreadFrameStack ThisThread;
// 0 until CAPSULE_FRAME_STACK has been read.
std::atomic<uint64_t> Reservation{0};

uint64_t pageBytes() { return static_cast<uint64_t>(sysconf(_SC_PAGESIZE)); }

uint64_t roundUp(uint64_t Bytes, uint64_t Step) {
  return (Bytes + Step - 1) / Step * Step;
}

uint64_t readReservation() {
  const char *Value = setting("CAPSULE_FRAME_STACK");
  if (!Value)
    return DefaultFrameStackBytes;
  std::optional<uint64_t> Bytes = parseByteCount(Value);
  // 0 (or "none", "unlimited") parses to 0; a frame stack needs a size.
  if (!Bytes || *Bytes == 0)
    failSetting("CAPSULE_FRAME_STACK", Value,
                "a byte count such as 1G (the default), 256M or 64K: the "
                "size of each thread's frame stack for interruptible "
                "execution");
  // Far more than any address space; mmap refuses it with a clear message.
  constexpr uint64_t Huge = uint64_t(1) << 62;
  return roundUp(*Bytes < Huge ? *Bytes : Huge, pageBytes());
}

[[noreturn]] void failExhausted(uint64_t Reserved) {
  std::fprintf(stderr,
               "capsule: the frame stack (%s) is exhausted: the recursion is "
               "too deep for interruptible execution; raise "
               "CAPSULE_FRAME_STACK, e.g. CAPSULE_FRAME_STACK=%s\n",
               formatBytes(Reserved, 1).Text, doubledSetting(Reserved).Text);
  std::exit(3);
}

[[noreturn]] void failMemory(const char *What, uint64_t Bytes) {
  std::fprintf(stderr,
               "capsule: out of memory %s %s of frame stack for "
               "interruptible execution; set CAPSULE_FRAME_STACK to a smaller "
               "size\n",
               What, formatBytes(Bytes, 1).Text);
  std::exit(3);
}

// The region reserves the address space (and releases it at thread exit);
// none of it is committed yet.
void reserve(ThreadFrameStack &S) {
  S.Base = regionFrameStack();
  S.Reserved = frameStackReservation();
  __capsule_frame_limit = S.Base;
}

// Commits [__capsule_frame_limit, End) and a little more, in whole steps,
// never past the reservation. End lies within the reservation.
void commitTo(ThreadFrameStack &S, char *End) {
  uint64_t Want = roundUp(End - S.Base, FrameCommitStep);
  if (Want > S.Reserved)
    Want = S.Reserved;
  char *NewLimit = S.Base + Want;
  char *Limit = __capsule_frame_limit;
  if (NewLimit <= Limit)
    return;
  if (mprotect(Limit, NewLimit - Limit, PROT_READ | PROT_WRITE) != 0)
    failMemory("committing", NewLimit - Limit);
  __capsule_frame_limit = NewLimit;
}

} // namespace

uint64_t frameStackReservation() {
  // Reading the variable twice gives the same answer, so a race between two
  // threads' first calls is harmless.
  uint64_t Bytes = Reservation.load(std::memory_order_acquire);
  if (!Bytes) {
    Bytes = readReservation();
    Reservation.store(Bytes, std::memory_order_release);
  }
  return Bytes;
}

char *frameStackBase() {
  ThreadFrameStack &S = ThisThread;
  if (__builtin_expect(!S.Base, 0)) {
    reserve(S);
    commitTo(S, S.Base + 1);
  }
  return S.Base;
}

uint64_t frameStackReservedBytes() { return ThisThread.Reserved; }

uint64_t frameStackCommittedBytes() {
  const ThreadFrameStack &S = ThisThread;
  return S.Base ? __capsule_frame_limit - S.Base : 0;
}

void frameStackFree() {
  ThreadFrameStack &S = ThisThread;
  releaseRegionFrameStackAndShadows();
  S.Base = nullptr;
  S.Reserved = 0;
  __capsule_frame_limit = nullptr;
}

} // namespace capsule

extern "C" void __capsule_frame_grow(char *End) {
  capsule::ThreadFrameStack &S = capsule::ThisThread;
  if (!S.Base || End < S.Base)
    capsule::failInternal("__capsule_frame_grow(%p) outside this thread's "
                          "frame stack (based at %p)",
                          static_cast<void *>(End),
                          static_cast<void *>(S.Base));
  if (uint64_t(End - S.Base) > S.Reserved)
    capsule::failExhausted(S.Reserved);
  capsule::commitTo(S, End);
}
