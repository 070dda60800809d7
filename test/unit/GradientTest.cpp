//===- GradientTest.cpp - Gradient bracketing and statistics --------------===//
#include "Tape.h"
#include "TestSupport.h"

#include "capsule/capsule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

using namespace capsule;

namespace {

class GradientTest : public testing::Test {
protected:
  void SetUp() override {
    capsule_set_tape_limit(0);
    capsule_set_timing(0);
    capsule_reset_stats();
  }
  void TearDown() override {
    tapeFree();
    capsule_set_timing(0);
    capsule_reset_stats();
  }
};

// One gradient call in plain reverse mode: the forward sweep pushes Bytes in
// records of at most 1000 bytes, the reverse sweep pops them.
void gradientCall(uint64_t Bytes) {
  __capsule_gradient_begin();
  std::vector<uint64_t> Records;
  for (uint64_t Left = Bytes; Left != 0; Left -= Records.back())
    Records.push_back(std::min<uint64_t>(Left, 1000));
  for (uint64_t Size : Records)
    tapePush(Size);
  __capsule_gradient_forward_done();
  for (auto Size = Records.rbegin(); Size != Records.rend(); ++Size)
    tapePop(*Size);
  __capsule_gradient_end();
}

capsule_stats_t stats() {
  capsule_stats_t Stats;
  capsule_get_stats(&Stats);
  return Stats;
}

TEST_F(GradientTest, StatisticsFollowTheCalls) {
  gradientCall(3000);
  capsule_stats_t First = stats();
  EXPECT_EQ(First.calls, 1u);
  EXPECT_EQ(First.last_tape_bytes, 3000u);
  EXPECT_EQ(First.peak_tape_bytes, 3000u);
  // Untimed: no clock is read.
  EXPECT_EQ(First.last_seconds, 0.0);
  EXPECT_EQ(First.total_seconds, 0.0);

  gradientCall(100);
  capsule_stats_t Second = stats();
  EXPECT_EQ(Second.calls, 2u);
  EXPECT_EQ(Second.last_tape_bytes, 100u);
  EXPECT_EQ(Second.peak_tape_bytes, 3000u);
}

TEST_F(GradientTest, TimedCallsAddUpTheirSeconds) {
  capsule_set_timing(1);
  __capsule_gradient_begin();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  __capsule_gradient_end();
  capsule_stats_t First = stats();
  EXPECT_GE(First.last_seconds, 0.005);
  EXPECT_EQ(First.total_seconds, First.last_seconds);
  gradientCall(100);
  capsule_stats_t Second = stats();
  EXPECT_DOUBLE_EQ(Second.total_seconds,
                   First.last_seconds + Second.last_seconds);
  // Switched off, the seconds stay where they were.
  capsule_set_timing(0);
  gradientCall(100);
  EXPECT_EQ(stats().total_seconds, Second.total_seconds);
  EXPECT_EQ(stats().calls, 3u);
}

TEST_F(GradientTest, CallsTimedFromTheMiddleCountNothing) {
  __capsule_gradient_begin();
  capsule_set_timing(1); // the call began untimed: no start to measure from
  __capsule_gradient_end();
  EXPECT_EQ(stats().last_seconds, 0.0);
}

TEST_F(GradientTest, RepeatedCallsKeepTheirChunkInPlace) {
  gradientCall(100);
  char *Chunk = __capsule_tape.chunk_begin;
  uint64_t Allocated = tapeChunkCounts().Allocated;
  for (int I = 0; I != 3; ++I) {
    __capsule_gradient_begin();
    // Emptied in place: the first push takes the inline path.
    EXPECT_EQ(__capsule_tape.chunk_begin, Chunk);
    EXPECT_EQ(__capsule_tape.top, Chunk);
    tapePush(100);
    __capsule_gradient_forward_done();
    tapePop(100);
    __capsule_gradient_end();
    EXPECT_EQ(stats().last_tape_bytes, 100u);
  }
  EXPECT_EQ(tapeChunkCounts().Allocated, Allocated);
}

TEST_F(GradientTest, ALimitLoweredBetweenCallsHolds) {
  gradientCall(3000);
  capsule_set_tape_limit(2500);
  EXPECT_EXIT(gradientCall(3000), testing::ExitedWithCode(3),
              "needs more than the limit of 2.4 KiB");
  gradientCall(2500);
  EXPECT_EQ(stats().last_tape_bytes, 2500u);
}

TEST_F(GradientTest, ALimitLoweredInsideACallHolds) {
  __capsule_gradient_begin();
  tapePush(1000);
  capsule_set_tape_limit(1500);
  tapePush(500);
  EXPECT_EXIT(tapePush(1), testing::ExitedWithCode(3),
              "needs more than the limit of 1.5 KiB");
  tapePop(500);
  tapePop(1000);
  __capsule_gradient_end();
}

TEST_F(GradientTest, PeakCountsEveryChunk) {
  // Several default-sized chunks' worth of records.
  uint64_t Bytes = 3 * DefaultChunkBytes + 12345;
  gradientCall(Bytes);
  EXPECT_EQ(stats().last_tape_bytes, Bytes);
}

TEST_F(GradientTest, TimeIsMeasuredFromBeginToEnd) {
  capsule_set_timing(1);
  __capsule_gradient_begin();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  __capsule_gradient_end();
  EXPECT_GE(stats().last_seconds, 0.02);
  EXPECT_LT(stats().last_seconds, 5.0);
}

TEST_F(GradientTest, ResetClearsTheStatistics) {
  gradientCall(500);
  capsule_reset_stats();
  capsule_stats_t Stats = stats();
  EXPECT_EQ(Stats.calls, 0u);
  EXPECT_EQ(Stats.last_tape_bytes, 0u);
  EXPECT_EQ(Stats.peak_tape_bytes, 0u);
  EXPECT_EQ(Stats.last_seconds, 0.0);
  EXPECT_EQ(Stats.total_seconds, 0.0);
}

TEST_F(GradientTest, BeginDiscardsAnAbandonedCall) {
  __capsule_gradient_begin();
  for (int I = 0; I != 100; ++I)
    tapePush(1000);
  // The call ends by an exception, say: no reverse sweep, no end.
  __capsule_gradient_begin();
  EXPECT_EQ(tapeBytesInUse(), 0u);
  __capsule_gradient_forward_done();
  __capsule_gradient_end();
  EXPECT_EQ(stats().last_tape_bytes, 0u);
}

TEST_F(GradientTest, CallsFromManyThreadsAreAllCounted) {
  auto Calls = [] {
    for (int I = 0; I != 50; ++I)
      gradientCall(2000);
  };
  std::thread A(Calls), B(Calls);
  A.join();
  B.join();
  EXPECT_EQ(stats().calls, 100u);
  EXPECT_EQ(stats().peak_tape_bytes, 2000u);
}

// CAPSULE_STATS is read once per process: these check it in death tests'
// fresh child processes.
TEST(GradientStatsOutputTest, OneLinePerCallWhenEnabled) {
  ScopedEnv Stats("CAPSULE_STATS", "1");
  EXPECT_EXIT(
      {
        gradientCall(1289748);
        gradientCall(0);
        std::exit(0);
      },
      testing::ExitedWithCode(0),
      "^capsule: gradient call 1: peak tape 1.23 MiB \\(1289748 bytes\\), "
      "[0-9]+\\.[0-9]{6} s\n"
      "capsule: gradient call 2: peak tape 0 B \\(0 bytes\\), "
      "[0-9]+\\.[0-9]{6} s\n$");
}

// Makes one gradient call in a child process with CAPSULE_STATS=Value and
// matches what the child printed to stderr against Regex.
void expectStatsOutput(const char *Value, const char *Regex) {
  ScopedEnv Stats("CAPSULE_STATS", Value);
  EXPECT_EXIT(
      {
        gradientCall(10);
        std::exit(0);
      },
      testing::ExitedWithCode(0), Regex)
      << "CAPSULE_STATS='" << Value << "'";
}

TEST(GradientStatsOutputTest, EveryOnWordEnables) {
  for (const char *On : {"yes", "TRUE", "on"})
    expectStatsOutput(On, "^capsule: gradient call 1: peak tape 10 B");
}

TEST(GradientStatsOutputTest, SilentWhenOffOrEmpty) {
  for (const char *Off : {"0", "no", "false", "OFF", ""})
    expectStatsOutput(Off, "^$");
}

TEST(GradientStatsOutputTest, InvalidValueStopsTheProgram) {
  ScopedEnv Stats("CAPSULE_STATS", "maybe");
  EXPECT_EXIT(__capsule_gradient_begin(), testing::ExitedWithCode(2),
              "capsule: invalid CAPSULE_STATS value 'maybe': expected 1, "
              "yes, true or on to print statistics, or 0, no, false or off");
}

} // namespace
