//===- FrameStackTest.cpp - Per-thread stack of resumable frames ----------===//
#include "FrameStack.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>

using namespace capsule;

namespace {

TEST(FrameStackTest, BaseIsAlignedAndCommitted) {
  char *Base = frameStackBase();
  ASSERT_NE(Base, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Base) % FrameAlignment, 0u);
  EXPECT_EQ(frameStackBase(), Base);
  EXPECT_EQ(frameStackReservedBytes(), DefaultFrameStackBytes);
  EXPECT_GE(frameStackCommittedBytes(), FrameCommitStep);
  EXPECT_EQ(__capsule_frame_limit, Base + frameStackCommittedBytes());
  std::memset(Base, 1, FrameCommitStep);
}

TEST(FrameStackTest, GrowCommitsWholeStepsUpToTheEnd) {
  char *Base = frameStackBase();
  uint64_t Committed = frameStackCommittedBytes();
  char *End = Base + Committed + 3 * FrameCommitStep + 64;
  // What generated code does before running a fresh activation.
  if (End > __capsule_frame_limit)
    __capsule_frame_grow(End);
  EXPECT_GE(__capsule_frame_limit, End);
  EXPECT_EQ(frameStackCommittedBytes() % FrameCommitStep, 0u);
  EXPECT_EQ(frameStackCommittedBytes(), Committed + 4 * FrameCommitStep);
  std::memset(Base, 2, End - Base);
  // Commitment never shrinks.
  __capsule_frame_grow(Base + 64);
  EXPECT_EQ(frameStackCommittedBytes(), Committed + 4 * FrameCommitStep);
}

TEST(FrameStackTest, GrowingToTheWholeReservationWorks) {
  // In a child process, so the other tests keep a small commitment.
  EXPECT_EXIT(
      {
        char *Base = frameStackBase();
        __capsule_frame_grow(Base + frameStackReservedBytes());
        Base[frameStackReservedBytes() - 1] = 1;
        std::exit(frameStackCommittedBytes() == frameStackReservedBytes() ? 0
                                                                          : 1);
      },
      testing::ExitedWithCode(0), "");
}

TEST(FrameStackTest, EachThreadHasItsOwnFrameStack) {
  char *Mine = frameStackBase();
  char *Theirs = nullptr;
  char *TheirLimit = nullptr;
  std::thread Other([&] {
    Theirs = frameStackBase();
    TheirLimit = __capsule_frame_limit;
  });
  Other.join();
  EXPECT_NE(Theirs, Mine);
  EXPECT_EQ(TheirLimit, Theirs + FrameCommitStep);
  EXPECT_EQ(frameStackBase(), Mine);
}

TEST(FrameStackTest, SizeComesFromTheEnvironment) {
  ScopedEnv Size("CAPSULE_FRAME_STACK", "3M");
  EXPECT_EXIT(
      {
        frameStackBase();
        std::exit(frameStackReservedBytes() == (uint64_t(3) << 20) ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
}

TEST(FrameStackTest, ExhaustingTheFrameStackStopsTheProgram) {
  ScopedEnv Size("CAPSULE_FRAME_STACK", "64K");
  EXPECT_EXIT(
      {
        char *Base = frameStackBase();
        // Committing all of it is fine...
        __capsule_frame_grow(Base + 64 * 1024);
        // ...one frame more is not.
        __capsule_frame_grow(Base + 64 * 1024 + 64);
      },
      testing::ExitedWithCode(3),
      "capsule: the frame stack \\(64.0 KiB\\) is exhausted: the recursion "
      "is too deep for interruptible execution; raise CAPSULE_FRAME_STACK, "
      "e.g. CAPSULE_FRAME_STACK=128K");
}

TEST(FrameStackTest, InvalidSizeStopsTheProgram) {
  for (const char *Value : {"lots", "0", "none", "-1M"}) {
    ScopedEnv Size("CAPSULE_FRAME_STACK", Value);
    EXPECT_EXIT(frameStackBase(), testing::ExitedWithCode(2),
                std::string("capsule: invalid CAPSULE_FRAME_STACK value '") +
                    Value +
                    "': expected a byte count such as 1G \\(the default\\), "
                    "256M or 64K")
        << Value;
  }
}

TEST(FrameStackTest, GrowOutsideTheFrameStackIsAnInternalError) {
  char *Base = frameStackBase();
  EXPECT_DEATH(__capsule_frame_grow(Base - 64),
               "capsule: internal error: __capsule_frame_grow");
}

} // namespace
