//===- GreenRunTest.cpp - Untaped forward sweeps --------------------------===//
#include "GreenRun.h"
#include "Tape.h"
#include "TestSupport.h"

#include "capsule/capsule.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace capsule;

namespace {

class GreenRunTest : public SmallTapeChunksTest {
protected:
  void TearDown() override {
    if (inGreenRun())
      endGreenRun();
    SmallTapeChunksTest::TearDown();
  }
};

// Pushes and pops Count records of Bytes each, checking what comes back.
void roundTrip(unsigned Count, uint64_t Bytes) {
  for (unsigned I = 0; I != Count; ++I)
    std::memset(tapePush(Bytes), int(I & 0xFF), Bytes);
  EXPECT_EQ(tapeBytesInUse(), Count * Bytes);
  tapeRecordPeak();
  for (unsigned I = Count; I-- != 0;) {
    auto *Record = static_cast<unsigned char *>(tapePop(Bytes));
    ASSERT_EQ(Record[0], I & 0xFF) << I;
    ASSERT_EQ(Record[Bytes - 1], I & 0xFF) << I;
  }
  EXPECT_EQ(tapeBytesInUse(), 0u);
}

TEST_F(GreenRunTest, PushesDoNotGrowTheTape) {
  // A limit far below what the run pushes.
  capsule_set_tape_limit(1000);
  TapeChunkCounts Before = tapeChunkCounts();
  beginGreenRun();
  EXPECT_TRUE(inGreenRun());
  for (unsigned I = 0; I != 10000; ++I) {
    std::memset(tapePush(48), 0xAB, 48);
    ASSERT_EQ(tapeBytesInUse(), 0u) << I;
  }
  // A record larger than a chunk gets one of its own, reused as well.
  std::memset(tapePush(3 * SmallChunk), 0xCD, 3 * SmallChunk);
  for (unsigned I = 0; I != 1000; ++I)
    std::memset(tapePush(40), 0xEF, 40);
  tapeRecordPeak();
  endGreenRun();
  EXPECT_FALSE(inGreenRun());
  EXPECT_EQ(tapeBytesInUse(), 0u);
  EXPECT_EQ(tapePeakBytes(), 0u);
  EXPECT_EQ(__capsule_tape.top, __capsule_tape.chunk_begin);
  // Two chunks at most: the first and the large one.
  EXPECT_LE(tapeChunkCounts().Held, Before.Held + 2);
  // The limit holds again for the inline path of the next taped sweep.
  EXPECT_LE(uint64_t(__capsule_tape.chunk_end - __capsule_tape.chunk_begin),
            1000u);
  roundTrip(20, 48);
  EXPECT_EQ(tapePeakBytes(), 20u * 48);
}

// The records of a green run are never read; the memory they cycle through
// stays small (it counts in the program's resident memory) even in a large
// chunk and over many megabytes of pushes.
TEST_F(GreenRunTest, RecordsCycleThroughASmallWindow) {
  setTapeChunkBytes(DefaultChunkBytes);
  tapeFree();
  beginGreenRun();
  char *Lowest = nullptr, *Highest = nullptr;
  for (unsigned I = 0; I != 100000; ++I) {
    auto *Record = static_cast<char *>(tapePush(64));
    std::memset(Record, 1, 64);
    Lowest = !Lowest || Record < Lowest ? Record : Lowest;
    Highest = !Highest || Record > Highest ? Record : Highest;
  }
  endGreenRun();
  EXPECT_LE(Highest + 64 - Lowest, 64 << 10);
}

TEST_F(GreenRunTest, TapedSweepsAroundAGreenRunWork) {
  roundTrip(100, 24);
  tapeReset();
  beginGreenRun();
  for (unsigned I = 0; I != 500; ++I)
    tapePush(24 + I % 100);
  endGreenRun();
  roundTrip(100, 24);
  // A green run right at the start of a thread's tape, with no chunk yet.
  tapeFree();
  beginGreenRun();
  tapePush(8);
  tapePush(8);
  endGreenRun();
  EXPECT_EQ(tapeBytesInUse(), 0u);
  roundTrip(300, 16);
}

TEST_F(GreenRunTest, BeginningWithRecordsOnTheTapeIsAnInternalError) {
  tapePush(16);
  EXPECT_DEATH(beginGreenRun(), "capsule: internal error: a green run began "
                                "with records on the gradient tape");
}

TEST_F(GreenRunTest, PoppingInAGreenRunIsAnInternalError) {
  EXPECT_DEATH(
      {
        beginGreenRun();
        tapePush(16);
        __capsule_tape_pop_slow(16);
      },
      "capsule: internal error: a record was popped from the gradient tape "
      "in a green run");
}

TEST_F(GreenRunTest, ShadowsAllocatedInTheRunAreFreedAtItsEnd) {
  uint64_t Live = liveShadowBlocks();
  void *Outside = __capsule_shadow_alloc(32);
  beginGreenRun();
  void *A = __capsule_shadow_alloc(16);
  void *B = __capsule_shadow_alloc(100);
  void *C = __capsule_shadow_alloc(0);
  void *D = __capsule_shadow_realloc(B, 200);
  void *E = __capsule_shadow_alloc(64);
  EXPECT_EQ(liveGreenShadows(), 5u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(A) % 16, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(D) % 16, 0u);
  // The new shadow holds the old one's contents; both are zero.
  EXPECT_EQ(static_cast<char *>(D)[99], 0);
  // The run frees some itself: unlinked, not freed twice at the end.
  __capsule_shadow_free(C);
  __capsule_shadow_note_free(E);
  __capsule_shadow_release(E);
  __capsule_shadow_release(A); // primal not freed: stays
  EXPECT_EQ(liveGreenShadows(), 3u);
  // A shadow from before the run is freed as usual.
  __capsule_shadow_free(Outside);
  EXPECT_EQ(liveShadowBlocks(), Live + 3);
  endGreenRun();
  EXPECT_EQ(liveGreenShadows(), 0u);
  EXPECT_EQ(liveShadowBlocks(), Live);

  // Outside a run nothing is remembered.
  void *After = __capsule_shadow_alloc(8);
  EXPECT_EQ(liveGreenShadows(), 0u);
  beginGreenRun();
  endGreenRun();
  EXPECT_EQ(liveShadowBlocks(), Live + 1);
  __capsule_shadow_free(After);
  EXPECT_EQ(liveShadowBlocks(), Live);
}

TEST_F(GreenRunTest, NestingIsAnInternalError) {
  EXPECT_DEATH(
      {
        beginGreenRun();
        beginGreenRun();
      },
      "capsule: internal error: a green run began inside another");
}

} // namespace
