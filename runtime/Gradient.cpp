//===- Gradient.cpp - Bracketing of gradient calls and their statistics ---===//
#include "Config.h"
#include "RuntimeRegion.h"
#include "StackGuard.h"
#include "Support.h"
#include "Tape.h"

#include "capsule/capsule.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace {

using capsule::TapeLevel;

/// The blocks __capsule_defer_free postponed in a gradient call.
struct DeferredFrees {
  void **Blocks = nullptr;
  uint64_t Size = 0, Capacity = 0;
};

/// A thread's gradient call on one of its tapes (Tape.h, TapeLevel): a
/// gradient that differentiates gradients (reverse over reverse) brackets
/// calls on the inner tape inside its own.
struct GradientCall {
  double Start = 0;
  DeferredFrees Deferred;
};
__thread GradientCall InnerCall, OuterCall;

GradientCall &callOn(TapeLevel L) {
  return L == TapeLevel::Outer ? OuterCall : InnerCall;
}

void freeDeferredBlocks(DeferredFrees &Deferred) {
  for (uint64_t I = 0; I < Deferred.Size; ++I)
    std::free(Deferred.Blocks[I]);
  Deferred.Size = 0;
}

// Process-wide, so a program can read them from any thread; written only at
// the end of a call.
pthread_mutex_t StatsMutex = PTHREAD_MUTEX_INITIALIZER;
capsule_stats_t Stats;

void printCall(uint64_t Call, uint64_t PeakBytes, double Seconds) {
  std::fprintf(stderr,
               "capsule: gradient call %llu: peak tape %s (%llu bytes), "
               "%.6f s\n",
               static_cast<unsigned long long>(Call),
               capsule::formatBytes(PeakBytes, 2).Text,
               static_cast<unsigned long long>(PeakBytes), Seconds);
}

void beginCall(TapeLevel L) {
  // Read both settings now, so a bad value stops the program before any work.
  capsule::tapeLimit();
  capsule::statsEnabled();
  capsule::tapeReset(L);
  capsule::armStackOverflowGuard();
  freeDeferredBlocks(callOn(L).Deferred);
  callOn(L).Start = capsule::monotonicSeconds();
}

void deferFree(TapeLevel L, void *Block) {
  DeferredFrees &Deferred = callOn(L).Deferred;
  if (Deferred.Size == Deferred.Capacity) {
    uint64_t Capacity = std::max<uint64_t>(64, 2 * Deferred.Capacity);
    void *Grown = std::realloc(Deferred.Blocks, Capacity * sizeof(void *));
    if (!Grown) {
      // Freeing the block now would let the reverse sweep read freed memory.
      std::fprintf(stderr, "capsule: out of memory postponing free() in a "
                           "gradient call\n");
      std::exit(3);
    }
    Deferred.Blocks = static_cast<void **>(Grown);
    Deferred.Capacity = Capacity;
  }
  Deferred.Blocks[Deferred.Size++] = Block;
}

void endCall(TapeLevel L) {
  freeDeferredBlocks(callOn(L).Deferred);
  double Seconds = capsule::monotonicSeconds() - callOn(L).Start;
  uint64_t PeakBytes = capsule::tapePeakBytes(L);
  uint64_t Call;
  {
    capsule::MutexLock Lock(StatsMutex);
    Call = ++Stats.calls;
    Stats.last_tape_bytes = PeakBytes;
    Stats.peak_tape_bytes = std::max(Stats.peak_tape_bytes, PeakBytes);
    Stats.last_seconds = Seconds;
    Stats.total_seconds += Seconds;
  }
  if (capsule::statsEnabled())
    printCall(Call, PeakBytes, Seconds);
}

} // namespace

extern "C" void __capsule_gradient_begin(void) { beginCall(TapeLevel::Inner); }

extern "C" void __capsule_gradient_forward_done(void) {
  capsule::tapeRecordPeak(TapeLevel::Inner);
}

extern "C" void __capsule_defer_free(void *Block) {
  deferFree(TapeLevel::Inner, Block);
}

extern "C" void __capsule_gradient_end(void) { endCall(TapeLevel::Inner); }

extern "C" void __capsule_outer_gradient_begin(void) {
  capsule::outerTapeCallBegins();
  capsule::clearAdjointPlaceSink();
  beginCall(TapeLevel::Outer);
}

extern "C" void __capsule_outer_gradient_forward_done(void) {
  capsule::tapeRecordPeak(TapeLevel::Outer);
}

extern "C" void __capsule_outer_defer_free(void *Block) {
  deferFree(TapeLevel::Outer, Block);
}

extern "C" void __capsule_outer_gradient_end(void) {
  endCall(TapeLevel::Outer);
  capsule::outerTapeCallEnds();
}

extern "C" void capsule_get_stats(capsule_stats_t *Out) {
  capsule::MutexLock Lock(StatsMutex);
  *Out = Stats;
}

extern "C" void capsule_reset_stats(void) {
  capsule::MutexLock Lock(StatsMutex);
  Stats = capsule_stats_t{};
}
