//===- TapeTest.cpp - The chunked LIFO tape -------------------------------===//
#include "Tape.h"
#include "TestSupport.h"

#include "capsule/capsule.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

using namespace capsule;

namespace {

using TapeTest = SmallTapeChunksTest;

unsigned char pattern(size_t Record, size_t Byte) {
  return static_cast<unsigned char>(Record * 31 + Byte * 7 + 1);
}

void fill(void *Record, size_t Index, size_t Size) {
  auto *Bytes = static_cast<unsigned char *>(Record);
  for (size_t I = 0; I != Size; ++I)
    Bytes[I] = pattern(Index, I);
}

bool holds(const void *Record, size_t Index, size_t Size) {
  auto *Bytes = static_cast<const unsigned char *>(Record);
  for (size_t I = 0; I != Size; ++I)
    if (Bytes[I] != pattern(Index, I))
      return false;
  return true;
}

// Sizes from 1 to 400 bytes, some larger than a whole SmallChunk.
std::vector<size_t> mixedSizes(size_t Count) {
  std::vector<size_t> Sizes;
  for (size_t I = 0; I != Count; ++I)
    Sizes.push_back(1 + (I * 97 + I / 3) % 400);
  return Sizes;
}

TEST_F(TapeTest, MixedRecordsRoundTripAcrossChunks) {
  std::vector<size_t> Sizes = mixedSizes(3000);
  uint64_t InUse = 0;
  for (size_t I = 0; I != Sizes.size(); ++I) {
    fill(tapePush(Sizes[I]), I, Sizes[I]);
    InUse += Sizes[I];
    ASSERT_EQ(tapeBytesInUse(), InUse) << "after push " << I;
  }
  for (size_t I = Sizes.size(); I-- != 0;) {
    ASSERT_TRUE(holds(tapePop(Sizes[I]), I, Sizes[I])) << "record " << I;
    InUse -= Sizes[I];
    ASSERT_EQ(tapeBytesInUse(), InUse) << "after pop " << I;
  }
  EXPECT_EQ(__capsule_tape.top, __capsule_tape.chunk_begin);
}

TEST_F(TapeTest, InterleavedPushesAndPopsStayLifo) {
  std::vector<size_t> Sizes = mixedSizes(2000);
  std::vector<size_t> Stack;
  for (size_t I = 0; I != Sizes.size(); ++I) {
    fill(tapePush(Sizes[I]), I, Sizes[I]);
    Stack.push_back(I);
    // Every third step pops two records, so the tape moves back and forth
    // across boundaries while it grows.
    for (int Pop = 0; I % 3 == 2 && Pop != 2; ++Pop) {
      size_t Top = Stack.back();
      Stack.pop_back();
      ASSERT_TRUE(holds(tapePop(Sizes[Top]), Top, Sizes[Top]));
    }
  }
  while (!Stack.empty()) {
    size_t Top = Stack.back();
    Stack.pop_back();
    ASSERT_TRUE(holds(tapePop(Sizes[Top]), Top, Sizes[Top]));
  }
  EXPECT_EQ(tapeBytesInUse(), 0u);
}

TEST_F(TapeTest, RecordNeverStraddlesChunks) {
  char *First = static_cast<char *>(tapePush(200));
  char *Second = static_cast<char *>(tapePush(100));
  EXPECT_EQ(__capsule_tape.chunk_begin, Second);
  EXPECT_NE(First + 200, Second);
  EXPECT_EQ(tapeBytesInUse(), 300u);
}

TEST_F(TapeTest, OversizedRecordGetsAChunkOfItsOwnSize) {
  fill(tapePush(10 * SmallChunk), 0, 10 * SmallChunk);
  EXPECT_GE(uint64_t(__capsule_tape.chunk_end - __capsule_tape.chunk_begin),
            10 * SmallChunk);
  EXPECT_TRUE(holds(tapePop(10 * SmallChunk), 0, 10 * SmallChunk));
}

TEST_F(TapeTest, SpareChunkIsReusedAtABoundary) {
  tapePush(SmallChunk);
  tapePush(8);
  uint64_t Allocated = tapeChunkCounts().Allocated;
  // Back and forth across the boundary between the two chunks.
  for (int I = 0; I != 3; ++I) {
    tapePop(8);
    tapePop(SmallChunk);
    tapePush(SmallChunk);
    tapePush(8);
  }
  EXPECT_EQ(tapeChunkCounts().Allocated, Allocated);
  EXPECT_EQ(tapeChunkCounts().Held, 2u);
}

TEST_F(TapeTest, ChunksAreKeptForTheNextCallAndTrimmedAfterIt) {
  for (int I = 0; I != 10; ++I)
    tapePush(SmallChunk);
  tapeRecordPeak();
  EXPECT_EQ(tapeChunkCounts().Held, 10u);
  for (int I = 0; I != 10; ++I)
    tapePop(SmallChunk);
  // Popping frees nothing: the next forward sweep needs the chunks again.
  EXPECT_EQ(tapeChunkCounts().Held, 10u);
  tapeReset();
  EXPECT_EQ(tapeChunkCounts().Held, 10u);
  // A second call of the same size allocates nothing.
  uint64_t Allocated = tapeChunkCounts().Allocated;
  for (int I = 0; I != 10; ++I)
    tapePush(SmallChunk);
  EXPECT_EQ(tapeChunkCounts().Allocated, Allocated);
  for (int I = 0; I != 10; ++I)
    tapePop(SmallChunk);
  tapeRecordPeak();
  // The reset after that call keeps what it needed; the reset after a call
  // that needed nothing keeps only one chunk...
  tapeReset();
  tapeReset();
  EXPECT_EQ(tapeChunkCounts().Held, 1u);
  // ...and tapeFree keeps none.
  tapeFree();
  EXPECT_EQ(tapeChunkCounts().Held, 0u);
}

// Records that leave the tail of each chunk unused: the chunks the call
// needed hold more than its peak in bytes, and all of them are kept.
TEST_F(TapeTest, ChunksWithUnusedTailsAreKeptForTheNextCall) {
  auto Call = [] {
    for (int I = 0; I != 20; ++I)
      tapePush(100); // two per chunk, 56 bytes left over
    tapeRecordPeak();
    for (int I = 0; I != 20; ++I)
      tapePop(100);
    tapeReset();
  };
  Call();
  uint64_t Allocated = tapeChunkCounts().Allocated;
  Call();
  EXPECT_EQ(tapeChunkCounts().Allocated, Allocated);
  EXPECT_EQ(tapeChunkCounts().Held, 10u);
}

TEST_F(TapeTest, EmptyChunkIsNotLeftBelowALargerOne) {
  fill(tapePush(200), 1, 200);
  tapePush(100);  // starts a second chunk...
  tapePop(100);   // ...and empties it, leaving it current
  tapePush(1000); // too large for it: a third chunk replaces it
  tapePop(1000);
  EXPECT_TRUE(holds(tapePop(200), 1, 200));
  EXPECT_EQ(tapeBytesInUse(), 0u);
}

TEST_F(TapeTest, ResetEmptiesTheTape) {
  for (int I = 0; I != 20; ++I)
    tapePush(100);
  tapeReset();
  EXPECT_EQ(tapeBytesInUse(), 0u);
  EXPECT_EQ(tapePeakBytes(), 0u);
  fill(tapePush(50), 2, 50);
  EXPECT_TRUE(holds(tapePop(50), 2, 50));
}

TEST_F(TapeTest, PeakIsExact) {
  std::vector<size_t> Sizes = mixedSizes(500);
  uint64_t Total = 0;
  for (size_t Size : Sizes) {
    tapePush(Size);
    Total += Size;
  }
  tapeRecordPeak();
  EXPECT_EQ(tapePeakBytes(), Total);
  for (size_t I = Sizes.size(); I-- != 0;)
    tapePop(Sizes[I]);
  tapePush(10);
  tapeRecordPeak();
  EXPECT_EQ(tapePeakBytes(), Total);
}

TEST_F(TapeTest, SlowPushesRecordThePeak) {
  tapePush(200);
  tapePush(100); // slow: the tape held 300 bytes here
  tapePop(100);
  EXPECT_EQ(tapePeakBytes(), 300u);
}

TEST_F(TapeTest, PopPastTheBottomIsAnInternalError) {
  tapePush(16);
  tapePop(16);
  EXPECT_DEATH(tapePop(16),
               "internal error: a 16-byte record was popped from the "
               "gradient tape but none was pushed");
}

TEST_F(TapeTest, EachThreadHasItsOwnTape) {
  fill(tapePush(100), 7, 100);
  auto Work = [](size_t Seed) {
    std::vector<size_t> Sizes = mixedSizes(1000);
    for (size_t I = 0; I != Sizes.size(); ++I)
      fill(tapePush(Sizes[I]), I + Seed, Sizes[I]);
    bool Intact = true;
    for (size_t I = Sizes.size(); I-- != 0;)
      Intact &= holds(tapePop(Sizes[I]), I + Seed, Sizes[I]);
    return Intact;
  };
  bool Intact[2] = {false, false};
  std::thread A([&] { Intact[0] = Work(1); });
  std::thread B([&] { Intact[1] = Work(2); });
  A.join();
  B.join();
  EXPECT_TRUE(Intact[0]);
  EXPECT_TRUE(Intact[1]);
  EXPECT_EQ(tapeBytesInUse(), 100u);
  EXPECT_TRUE(holds(tapePop(100), 7, 100));
}

// Forward mode over a gradient: generated code pushes and pops on the tape
// and on each lane's tangent tape alike, inline, and mirrors the lanes'
// tangent tapes after each slow path (abi.h). Lanes 0, 1 and 3 of vector
// mode.
constexpr uint64_t Lanes[] = {0, 1, 3};
constexpr int LaneCount = 3;

struct RecordAndTwins {
  void *Record;
  void *Twins[LaneCount];
};

capsule_tape_state &tangentTape(uint64_t Lane) {
  return Lane ? __capsule_tangent_tape_lanes[Lane] : __capsule_tangent_tape;
}

RecordAndTwins mirrored(void *Record) {
  RecordAndTwins R{Record, {}};
  for (int L = 0; L != LaneCount; ++L)
    R.Twins[L] = __capsule_tangent_tape_lane_mirror(Record, Lanes[L]);
  return R;
}

RecordAndTwins pushAll(uint64_t N) {
  capsule_tape_state &T = __capsule_tape;
  if (T.chunk_end - T.top < static_cast<int64_t>(N))
    return mirrored(__capsule_tape_push_slow(N));
  RecordAndTwins R{T.top, {}};
  T.top += N;
  for (int L = 0; L != LaneCount; ++L) {
    R.Twins[L] = tangentTape(Lanes[L]).top;
    tangentTape(Lanes[L]).top += N;
  }
  return R;
}

RecordAndTwins popAll(uint64_t N) {
  capsule_tape_state &T = __capsule_tape;
  if (T.top == T.chunk_begin)
    return mirrored(__capsule_tape_pop_slow(N));
  T.top -= N;
  RecordAndTwins R{T.top, {}};
  for (int L = 0; L != LaneCount; ++L) {
    tangentTape(Lanes[L]).top -= N;
    R.Twins[L] = tangentTape(Lanes[L]).top;
  }
  return R;
}

TEST_F(TapeTest, TwinRecordsFollowTheirRecordsAcrossChunksInEveryLane) {
  std::vector<size_t> Sizes = mixedSizes(2000);
  for (int Round = 0; Round != 2; ++Round) { // the second reuses chunks
    tapeReset();
    for (uint64_t Lane : Lanes)
      EXPECT_EQ(__capsule_tangent_tape_lane_mirror(nullptr, Lane), nullptr);
    std::vector<size_t> Stack;
    auto PopAndCheck = [&] {
      size_t Top = Stack.back();
      Stack.pop_back();
      RecordAndTwins R = popAll(Sizes[Top]);
      ASSERT_TRUE(holds(R.Record, Top, Sizes[Top])) << "record " << Top;
      for (int L = 0; L != LaneCount; ++L)
        ASSERT_TRUE(holds(R.Twins[L], Top + 5000 * (L + 1), Sizes[Top]))
            << "twin " << Top << " of lane " << Lanes[L];
    };
    for (size_t I = 0; I != Sizes.size(); ++I) {
      RecordAndTwins R = pushAll(Sizes[I]);
      fill(R.Record, I, Sizes[I]);
      for (int L = 0; L != LaneCount; ++L) {
        ASSERT_NE(R.Twins[L], nullptr);
        ASSERT_NE(R.Twins[L], R.Record);
        fill(R.Twins[L], I + 5000 * (L + 1), Sizes[I]);
      }
      Stack.push_back(I);
      for (int Pop = 0; I % 3 == 2 && Pop != 2; ++Pop)
        PopAndCheck();
    }
    while (!Stack.empty())
      PopAndCheck();
  }
  EXPECT_EQ(tapeBytesInUse(), 0u);
}

// Reverse over reverse: the outer gradient's records are on a tape of their
// own, which the inner gradient's resets and chunk changes leave alone.
void *pushOuter(uint64_t N) {
  capsule_tape_state &T = __capsule_outer_tape;
  if (T.chunk_end - T.top < static_cast<int64_t>(N))
    return __capsule_outer_tape_push_slow(N);
  void *Record = T.top;
  T.top += N;
  return Record;
}

void *popOuter(uint64_t N) {
  capsule_tape_state &T = __capsule_outer_tape;
  if (T.top == T.chunk_begin)
    return __capsule_outer_tape_pop_slow(N);
  T.top -= N;
  return T.top;
}

TEST_F(TapeTest, OuterTapeKeepsItsRecordsAcrossInnerCalls) {
  std::vector<size_t> Sizes = mixedSizes(300);
  outerTapeCallBegins();
  tapeReset(TapeLevel::Outer);
  for (size_t I = 0; I != Sizes.size(); ++I) {
    fill(pushOuter(Sizes[I]), I, Sizes[I]);
    // An inner gradient call between the outer records: it starts from an
    // empty tape, fills it over several chunks and empties it.
    if (I % 50 == 0) {
      tapeReset();
      for (size_t K = 0; K != 20; ++K)
        fill(tapePush(Sizes[K]), K + 1000, Sizes[K]);
      for (size_t K = 20; K-- != 0;)
        ASSERT_TRUE(holds(tapePop(Sizes[K]), K + 1000, Sizes[K]));
    }
  }
  EXPECT_EQ(tapeBytesInUse(), 0u);
  for (size_t I = Sizes.size(); I-- != 0;)
    ASSERT_TRUE(holds(popOuter(Sizes[I]), I, Sizes[I])) << "record " << I;
  EXPECT_EQ(tapeBytesInUse(TapeLevel::Outer), 0u);
  outerTapeCallEnds();
  tapeFree(TapeLevel::Outer);
}

// The adjoint twins are zero when an inner call first uses them, and what
// the outer level wrote into them goes when the clear comes, as far as the
// records reached.
TEST_F(TapeTest, AdjointTwinsAreZeroAndClearedAsFarAsRecordsReached) {
  outerTapeCallBegins();
  for (int Call = 0; Call != 3; ++Call) {
    tapeReset();
    __capsule_adjoint_tape_clear();
    EXPECT_EQ(__capsule_adjoint_tape_mirror(nullptr), nullptr);
    std::vector<unsigned char *> Twins;
    for (size_t I = 0; I != 40; ++I) {
      void *Record = tapePush(24);
      auto *Twin =
          static_cast<unsigned char *>(__capsule_adjoint_tape_mirror(Record));
      for (size_t B = 0; B != 24; ++B)
        ASSERT_EQ(Twin[B], 0) << "call " << Call << " record " << I;
      std::memset(Twin, 0xab, 24); // a shadow pointer, say
      Twins.push_back(Twin);
    }
    tapeRecordPeak(); // the inner call's forward sweep is done
    __capsule_adjoint_tape_clear();
    for (unsigned char *Twin : Twins)
      for (size_t B = 0; B != 24; ++B)
        ASSERT_EQ(Twin[B], 0) << "call " << Call;
    while (tapeBytesInUse())
      tapePop(24);
  }
  outerTapeCallEnds();
}

// The limit counts pushed bytes exactly, whatever the chunk size.
class TapeLimitTest : public TapeTest {
protected:
  void SetUp() override {
    TapeTest::SetUp();
    setTapeChunkBytes(DefaultChunkBytes);
    // Leave a spare chunk far larger than the limit, to be reused.
    tapePush(8);
    tapeReset();
    capsule_set_tape_limit(1000);
  }
  void TearDown() override {
    capsule_set_tape_limit(0);
    TapeTest::TearDown();
  }
};

TEST_F(TapeLimitTest, PushesUpToTheLimitSucceed) {
  tapePush(600);
  tapePush(400);
  EXPECT_EQ(tapeBytesInUse(), 1000u);
  // The reused chunk was capped at the limit, so the inline path cannot pass
  // it.
  EXPECT_EQ(__capsule_tape.top, __capsule_tape.chunk_end);
}

TEST_F(TapeLimitTest, OneByteMoreStopsTheProgram) {
  tapePush(600);
  tapePush(400);
  EXPECT_EXIT(tapePush(1), testing::ExitedWithCode(3),
              "capsule: the gradient's tape needs more than the limit of "
              "1000 B \\(1000 bytes\\) set by capsule_set_tape_limit\\(\\); "
              "raise it, e.g. capsule_set_tape_limit\\(2000\\)");
}

TEST_F(TapeLimitTest, RecordLargerThanTheRoomLeftStopsTheProgram) {
  tapePush(990);
  EXPECT_EXIT(tapePush(16), testing::ExitedWithCode(3),
              "needs more than the limit of 1000 B");
}

TEST_F(TapeLimitTest, PoppedBytesCanBePushedAgain) {
  for (int I = 0; I != 50; ++I) {
    tapePush(1000);
    tapePop(1000);
  }
  tapePush(1000);
  EXPECT_EQ(tapeBytesInUse(), 1000u);
}

// These read CAPSULE_TAPE_LIMIT, which happens once per process: each runs
// its check in a death test's fresh child process.
TEST(TapeLimitEnvironmentTest, LimitFromTheEnvironmentIsEnforced) {
  ScopedEnv Limit("CAPSULE_TAPE_LIMIT", "64M");
  EXPECT_EXIT(
      {
        if (capsule_tape_limit() != (uint64_t(64) << 20))
          std::exit(1);
        tapePush(uint64_t(64) << 20);
        tapePush(1);
      },
      testing::ExitedWithCode(3),
      "capsule: the gradient's tape needs more than the limit of 64.0 MiB "
      "\\(67108864 bytes\\) set by CAPSULE_TAPE_LIMIT; raise it, e.g. "
      "CAPSULE_TAPE_LIMIT=128M, or call capsule_set_tape_limit\\(\\)");
}

TEST(TapeLimitEnvironmentTest, InvalidValueStopsTheProgram) {
  ScopedEnv Limit("CAPSULE_TAPE_LIMIT", "abc");
  EXPECT_EXIT(capsule_tape_limit(), testing::ExitedWithCode(2),
              "capsule: invalid CAPSULE_TAPE_LIMIT value 'abc': expected a "
              "byte count such as 1048576, 512M, 2G or 'unlimited'");
}

TEST(TapeLimitEnvironmentTest, InvalidValueIsReportedByTheFirstSlowPush) {
  ScopedEnv Limit("CAPSULE_TAPE_LIMIT", "12 MB");
  EXPECT_EXIT(tapePush(8), testing::ExitedWithCode(2),
              "invalid CAPSULE_TAPE_LIMIT value '12 MB'");
}

TEST(TapeLimitEnvironmentTest, ValueIsReadOnce) {
  ScopedEnv Limit("CAPSULE_TAPE_LIMIT", "1K");
  EXPECT_EXIT(
      {
        uint64_t First = capsule_tape_limit();
        setenv("CAPSULE_TAPE_LIMIT", "2K", 1);
        std::exit(First == 1024 && capsule_tape_limit() == 1024 ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
}

TEST(TapeLimitEnvironmentTest, ApiOverridesTheEnvironment) {
  ScopedEnv Limit("CAPSULE_TAPE_LIMIT", "not a size");
  EXPECT_EXIT(
      {
        capsule_set_tape_limit(5000);
        std::exit(capsule_tape_limit() == 5000 ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
}

TEST(TapeLimitEnvironmentTest, UnlimitedMeansNoLimit) {
  ScopedEnv Limit("CAPSULE_TAPE_LIMIT", "unlimited");
  EXPECT_EXIT(std::exit(capsule_tape_limit() == 0 ? 0 : 1),
              testing::ExitedWithCode(0), "");
}

} // namespace
