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

// The pass's inline push compares the room left as a signed number, tapePush
// as an unsigned one: only no room at all sends every push to the slow path
// under both.
TEST_F(GreenRunTest, EveryPushAndPopTakesTheSlowPath) {
  // A chunk with room to spare, as a reverse sweep leaves it.
  roundTrip(4, 16);
  ASSERT_NE(__capsule_tape.chunk_end, __capsule_tape.top);
  beginGreenRun();
  EXPECT_TRUE(inGreenRun());
  EXPECT_EQ(__capsule_tape.chunk_end - __capsule_tape.top, 0);
  EXPECT_EQ(__capsule_tape.top, __capsule_tape.chunk_begin);
  endGreenRun();
  EXPECT_FALSE(inGreenRun());
}

TEST_F(GreenRunTest, TapedSweepsAroundAGreenRunWork) {
  // A limit below a chunk's capacity: the chunk the run starts in is capped.
  capsule_set_tape_limit(200);
  roundTrip(8, 24);
  capsule_tape_state Before = __capsule_tape;
  beginGreenRun();
  EXPECT_EQ(tapeBytesInUse(), 0u);
  endGreenRun();
  EXPECT_EQ(__capsule_tape.top, Before.top);
  EXPECT_EQ(__capsule_tape.chunk_end, Before.chunk_end);
  EXPECT_EQ(__capsule_tape.chunk_begin, Before.chunk_begin);
  // The limit holds for the inline push of the next taped sweep.
  EXPECT_LE(uint64_t(__capsule_tape.chunk_end - __capsule_tape.chunk_begin),
            200u);
  roundTrip(8, 24);

  // Across many chunks, before and after a run.
  capsule_set_tape_limit(0);
  roundTrip(100, 24);
  beginGreenRun();
  endGreenRun();
  roundTrip(100, 24);
  EXPECT_EQ(tapePeakBytes(), 100u * 24);

  // A green run right at the start of a thread's tape, with no chunk yet.
  tapeFree();
  beginGreenRun();
  endGreenRun();
  EXPECT_EQ(tapeBytesInUse(), 0u);
  roundTrip(300, 16);

  // Shadows are allocated as usual around a green run.
  void *Shadow = __capsule_shadow_alloc(32);
  beginGreenRun();
  endGreenRun();
  __capsule_shadow_free(__capsule_shadow_realloc(Shadow, 64));
  __capsule_shadow_free(Shadow);
}

TEST_F(GreenRunTest, BeginningWithRecordsOnTheTapeIsAnInternalError) {
  tapePush(16);
  EXPECT_DEATH(beginGreenRun(), "capsule: internal error: a green run began "
                                "with records on the gradient tape");
}

// A green run executes the untaped sweep: a push means a taped sweep ran.
TEST_F(GreenRunTest, PushingInAGreenRunIsAnInternalError) {
  roundTrip(4, 16);
  EXPECT_DEATH(
      {
        beginGreenRun();
        tapePush(16);
      },
      "capsule: internal error: a record was pushed on the gradient tape in "
      "a green run \\(16 bytes\\)");
  // With no chunk yet, and a record larger than a chunk.
  tapeFree();
  EXPECT_DEATH(
      {
        beginGreenRun();
        __capsule_tape_push_slow(3 * SmallChunk);
      },
      "capsule: internal error: a record was pushed on the gradient tape in "
      "a green run");
}

TEST_F(GreenRunTest, PoppingInAGreenRunIsAnInternalError) {
  roundTrip(4, 16);
  EXPECT_DEATH(
      {
        beginGreenRun();
        tapePop(16);
      },
      "capsule: internal error: a record was popped from the gradient tape "
      "in a green run");
}

// Checkpointed code takes its shadows from the arena's addresses and the
// scratch shadows; no reverse sweep would free one from the shadow heap.
TEST_F(GreenRunTest, AllocatingAShadowInAGreenRunIsAnInternalError) {
  EXPECT_DEATH(
      {
        beginGreenRun();
        __capsule_shadow_alloc(16);
      },
      "capsule: internal error: a shadow was allocated on the shadow heap in "
      "a green run \\(16 bytes\\)");
  void *Shadow = __capsule_shadow_alloc(8);
  EXPECT_DEATH(
      {
        beginGreenRun();
        __capsule_shadow_realloc(Shadow, 24);
      },
      "capsule: internal error: a shadow was allocated on the shadow heap in "
      "a green run");
  __capsule_shadow_free(Shadow);
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
