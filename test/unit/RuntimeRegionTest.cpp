//===- RuntimeRegionTest.cpp - Region of runtime memory and its shadows ---===//
#include "RuntimeRegion.h"
#include "Arena.h"
#include "FrameStack.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace capsule;

namespace {

bool allZero(const char *P, uint64_t Bytes) {
  for (uint64_t I = 0; I != Bytes; ++I)
    if (P[I])
      return false;
  return true;
}

bool inPrimalSpan(const void *P) {
  auto *C = static_cast<const char *>(P);
  return C >= __capsule_region_base &&
         C < __capsule_region_base + __capsule_region_span;
}

// The adjoint and pointer-shadow spans of [P, P + Bytes) read as zero, and
// take and keep what is written to them.
void expectShadowsZeroAndWritable(char *P, uint64_t Bytes) {
  uint64_t Span = __capsule_region_span;
  for (char *Shadow : {P + Span, P + 2 * Span}) {
    EXPECT_TRUE(allZero(Shadow, Bytes));
    std::memset(Shadow, 0x5C, Bytes);
    EXPECT_EQ(Shadow[0], 0x5C);
    EXPECT_EQ(Shadow[Bytes - 1], 0x5C);
  }
}

TEST(RuntimeRegionTest, FrameStackAndArenaLieInThePrimalSpan) {
  char *Frames = frameStackBase();
  void *Block = __capsule_malloc(1000);
  ASSERT_NE(__capsule_region_base, nullptr);
  ASSERT_NE(__capsule_region_span, 0u);
  EXPECT_EQ(Frames, __capsule_region_base);
  EXPECT_EQ(frameStackReservedBytes(), frameStackReservation());
  EXPECT_TRUE(inPrimalSpan(Block));
  EXPECT_TRUE(inPrimalSpan(static_cast<char *>(Block) + 999));
  // The arena follows the frame stack and fills the rest of the span.
  EXPECT_GE(static_cast<char *>(Block), Frames + frameStackReservation());
  EXPECT_EQ(frameStackReservation() + arenaStats().ReservedBytes,
            __capsule_region_span);
  EXPECT_TRUE(inRuntimeRegion(Frames));
  EXPECT_TRUE(inRuntimeRegion(Block));
  EXPECT_TRUE(
      inRuntimeRegion(__capsule_region_base + __capsule_region_span - 1));
  EXPECT_FALSE(inRuntimeRegion(__capsule_region_base + __capsule_region_span));
  EXPECT_FALSE(inRuntimeRegion(__capsule_region_base - 1));
  int Local = 0;
  void *Foreign = std::malloc(16);
  EXPECT_FALSE(inRuntimeRegion(&Local));
  EXPECT_FALSE(inRuntimeRegion(Foreign));
  EXPECT_FALSE(inRuntimeRegion(nullptr));
  std::free(Foreign);
  __capsule_free(Block);
}

TEST(RuntimeRegionTest, ShadowSpansAreWritableAndStartZero) {
  // On a fresh thread, so no other test has written its shadows.
  std::thread Fresh([] {
    char *Frames = frameStackBase();
    __capsule_frame_grow(Frames + 2 * FrameCommitStep);
    std::memset(Frames, 0x11, 2 * FrameCommitStep);
    expectShadowsZeroAndWritable(Frames, 4096);
    // The top of the frame stack, never committed.
    expectShadowsZeroAndWritable(Frames + frameStackReservation() - 64, 64);
    auto *Block = static_cast<char *>(__capsule_malloc(100000));
    std::memset(Block, 0x22, 100000);
    expectShadowsZeroAndWritable(Block, 100000);
    // The last bytes of the arena, far past anything committed.
    expectShadowsZeroAndWritable(
        __capsule_region_base + __capsule_region_span - 128, 128);
    __capsule_free(Block);
  });
  Fresh.join();
}

TEST(RuntimeRegionTest, SpanIsTheSameOnEveryThread) {
  frameStackBase();
  char *Mine = __capsule_region_base;
  uint64_t MySpan = __capsule_region_span;
  char *Theirs = nullptr;
  uint64_t TheirSpan = 0;
  std::thread Other([&] {
    // The arena first this time: either piece reserves the region.
    void *Block = __capsule_malloc(10);
    Theirs = __capsule_region_base;
    TheirSpan = __capsule_region_span;
    EXPECT_TRUE(inPrimalSpan(Block));
    EXPECT_EQ(frameStackBase(), Theirs);
    __capsule_free(Block);
  });
  Other.join();
  ASSERT_NE(Theirs, nullptr);
  EXPECT_NE(Theirs, Mine);
  EXPECT_EQ(TheirSpan, MySpan);
  // The regions, shadows included, do not overlap.
  EXPECT_TRUE(Theirs + 3 * MySpan <= Mine || Mine + 3 * MySpan <= Theirs);
  EXPECT_EQ(__capsule_region_base, Mine);
}

TEST(RuntimeRegionTest, ThreadsReservingAtOnceGetDisjointRegions) {
  constexpr int NumThreads = 8;
  char *Bases[NumThreads] = {};
  uint64_t Spans[NumThreads] = {};
  std::atomic<int> Reserved{0};
  std::vector<std::thread> Threads;
  for (int I = 0; I != NumThreads; ++I)
    Threads.emplace_back([&, I] {
      // Half of them start with the arena.
      void *Block = I % 2 ? __capsule_malloc(8) : nullptr;
      frameStackBase();
      Bases[I] = __capsule_region_base;
      Spans[I] = __capsule_region_span;
      __capsule_free(Block);
      // A thread that exits releases its frame stack and shadows, and a
      // later region may take their place: all must be alive at once.
      ++Reserved;
      while (Reserved.load() != NumThreads)
        std::this_thread::yield();
    });
  for (std::thread &T : Threads)
    T.join();
  for (int I = 0; I != NumThreads; ++I) {
    ASSERT_NE(Bases[I], nullptr);
    EXPECT_EQ(Spans[I], __capsule_region_span);
    for (int J = 0; J != I; ++J)
      EXPECT_TRUE(Bases[I] + 3 * Spans[I] <= Bases[J] ||
                  Bases[J] + 3 * Spans[J] <= Bases[I])
          << I << " " << J;
  }
}

TEST(RuntimeRegionTest, FreedFrameStackComesBackAtTheSameAddress) {
  std::thread Fresh([] {
    void *Block = __capsule_malloc(64);
    char *Base = frameStackBase();
    Base[0] = 1;
    Base[__capsule_region_span] = 2;
    // What the thread's exit cleanup does; a later key destructor may use
    // the frame stack again.
    frameStackFree();
    EXPECT_EQ(__capsule_region_base, nullptr);
    EXPECT_EQ(frameStackCommittedBytes(), 0u);
    EXPECT_FALSE(inRuntimeRegion(Base));
    EXPECT_FALSE(inRuntimeRegion(Block));
    // The arena stays.
    EXPECT_TRUE(arenaContains(Block));
    EXPECT_EQ(frameStackBase(), Base);
    EXPECT_EQ(__capsule_region_base, Base);
    // Mapped afresh: zero again.
    EXPECT_EQ(Base[0], 0);
    EXPECT_EQ(Base[__capsule_region_span], 0);
    EXPECT_TRUE(inRuntimeRegion(Block));
    __capsule_free(Block);
  });
  Fresh.join();
}

TEST(RuntimeRegionTest, AnImpossibleReservationStopsTheProgram) {
  // Far more than any address space, even once.
  ScopedEnv Size("CAPSULE_FRAME_STACK", "1000000T");
  EXPECT_EXIT(__capsule_malloc(8), testing::ExitedWithCode(3),
              "capsule: cannot reserve address space for interruptible "
              "execution: .* of frame stack and at least 256.0 MiB of "
              "allocation arena, three times over");
}

TEST(RuntimeRegionTest, SinkIsReservedOnceAndWritable) {
  reserveSink();
  char *Sink = __capsule_sink_base;
  ASSERT_NE(Sink, nullptr);
  reserveSink();
  EXPECT_EQ(__capsule_sink_base, Sink);
  char *FromThread = nullptr;
  std::thread Other([&] {
    reserveSink();
    FromThread = __capsule_sink_base;
  });
  Other.join();
  EXPECT_EQ(FromThread, Sink);

  static const double Constant[4] = {1, 2, 3, 4};
  int Local = 0;
  for (const void *P :
       {static_cast<const void *>(Constant), static_cast<const void *>(&Local),
        reinterpret_cast<const void *>(uintptr_t(CAPSULE_SINK_MASK) - 8)}) {
    auto *Adjoint = reinterpret_cast<double *>(
        Sink + (reinterpret_cast<uintptr_t>(P) & CAPSULE_SINK_MASK));
    for (int I = 0; I != 4; ++I)
      Adjoint[I] += 1.5;
    // An object near the top of the mask still fits in the margin.
    Adjoint[(uint64_t(1) << 20) / sizeof(double)] = 1;
  }
}

} // namespace
