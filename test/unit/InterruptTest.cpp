//===- InterruptTest.cpp - Driver of interruptible execution --------------===//
//
// The step functions here are written by hand the way the pass generates
// them (abi.h): blocks charge their cost to __capsule_budget, yield points
// (function entries and loop headers) yield when the budget is used up,
// every store is journaled, frames live on the frame stack and hold the
// resume index and the values that live across a yield, and heap memory
// comes from the arena.
//===----------------------------------------------------------------------===//
#include "Arena.h"
#include "FrameStack.h"
#include "Journal.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <thread>
#include <vector>

using namespace capsule;

namespace {

// A store of instrumented code.
template <typename T> void store(T &Dst, T Value) {
  if (__capsule_journal_depth)
    __capsule_journal_write(&Dst, sizeof(T));
  Dst = Value;
}

constexpr int64_t BufLen = 8;

// double sumTo(int64_t M): sum of 0.5 * j for j in [1, M].
struct alignas(64) CalleeFrame {
  uint32_t Resume; // 0: entry, 1: loop header
  int64_t M;
  int64_t J;
  double S;
  double Result;
};

uint8_t calleeStep(void *Raw) {
  auto *F = static_cast<CalleeFrame *>(Raw);
  switch (F->Resume) {
  case 0:
    goto Entry;
  case 1:
    goto Header;
  }
  std::abort();
Entry:
  if (__capsule_budget <= 0)
    return 1; // resume index 0 already says "at the entry"
  __capsule_budget -= 2;
  store(F->J, int64_t(0));
  store(F->S, 0.0);
Header:
  if (__capsule_budget <= 0) {
    store(F->Resume, 1u);
    return 1;
  }
  __capsule_budget -= 1;
  if (F->J >= F->M)
    goto Exit;
  __capsule_budget -= 2;
  store(F->S, F->S + 0.5 * double(F->J + 1));
  store(F->J, F->J + 1);
  goto Header;
Exit:
  __capsule_budget -= 1;
  store(F->Result, F->S);
  return 0;
}

// double root(int64_t N): a loop that calls sumTo and keeps a heap buffer.
struct alignas(64) RootFrame {
  uint32_t Resume; // 0: entry, 1: loop header, 2: in the call
  int64_t N;
  int64_t I;
  double Acc;
  double *Buf;
  double Result;
};

uint8_t rootStep(void *Raw) {
  auto *F = static_cast<RootFrame *>(Raw);
  // The callee's frame begins where this one ends.
  auto *Callee = reinterpret_cast<CalleeFrame *>(F + 1);
  switch (F->Resume) {
  case 0:
    goto Entry;
  case 1:
    goto Header;
  case 2:
    goto Call;
  }
  std::abort();
Entry:
  if (__capsule_budget <= 0)
    return 1;
  __capsule_budget -= 3;
  store(F->I, int64_t(0));
  store(F->Acc, 0.0);
  store(F->Buf, static_cast<double *>(__capsule_calloc(BufLen, 8)));
Header:
  if (__capsule_budget <= 0) {
    store(F->Resume, 1u);
    return 1;
  }
  __capsule_budget -= 1;
  if (F->I >= F->N)
    goto Exit;
  __capsule_budget -= 4;
  {
    char *End = reinterpret_cast<char *>(Callee + 1);
    if (End > __capsule_frame_limit)
      __capsule_frame_grow(End);
    store(Callee->Resume, 0u);
    store(Callee->M, F->I % 4);
  }
Call:
  if (calleeStep(Callee)) {
    store(F->Resume, 2u);
    return 1;
  }
  {
    double &Slot = F->Buf[F->I % BufLen];
    store(Slot, Slot + Callee->Result);
    store(F->Acc, F->Acc + Callee->Result * double(F->I + 1) + Slot);
    store(F->I, F->I + 1);
  }
  goto Header;
Exit:
  __capsule_budget -= 2;
  __capsule_free(F->Buf);
  store(F->Result, F->Acc);
  return 0;
}

const capsule_entry RootEntry = {rootStep, sizeof(RootFrame),
                                 offsetof(RootFrame, Result), sizeof(double),
                                 "root"};

// The same computation, directly.
double reference(int64_t N) {
  double Buf[BufLen] = {};
  double Acc = 0;
  for (int64_t I = 0; I != N; ++I) {
    double S = 0;
    for (int64_t J = 0; J != I % 4; ++J)
      S += 0.5 * double(J + 1);
    Buf[I % BufLen] += S;
    Acc += S * double(I + 1) + Buf[I % BufLen];
  }
  return Acc;
}

// Its step count, block by block.
uint64_t referenceSteps(int64_t N) {
  uint64_t Steps = 3 + (N + 1) * 1 + N * 4 + 2;
  for (int64_t I = 0; I != N; ++I)
    Steps += 2 + (I % 4 + 1) + 2 * (I % 4) + 1;
  return Steps;
}

// The most steps between two yield points: a run stops at most this far
// past its limit.
constexpr uint64_t MaxOvershoot = 8;

// What the pass emits for __capsule_primops(root, N) and
// __capsule_interrupt(root, L, N).
RootFrame *start(int64_t N) {
  auto *F = static_cast<RootFrame *>(__capsule_root_frame(&RootEntry));
  store(F->N, N);
  return F;
}

RootFrame *rootFrame() {
  return reinterpret_cast<RootFrame *>(frameStackBase());
}

capsule_interrupt_stats_t stats() {
  capsule_interrupt_stats_t S;
  capsule_get_interrupt_stats(&S);
  return S;
}

// Releases, at the end of each test, whatever capsules it left live.
class InterruptTest : public testing::Test {
protected:
  void TearDown() override {
    while (!Made.empty()) {
      capsule_release(Made.back());
      Made.pop_back();
    }
    EXPECT_EQ(stats().live_capsules, 0u);
    EXPECT_EQ(stats().journal_bytes, 0u);
    EXPECT_EQ(threadJournal().depth(), 0u);
  }

  capsule_t *keep(capsule_t *C) {
    if (C)
      Made.push_back(C);
    return C;
  }
  capsule_t *interrupt(int64_t N, uint64_t Limit) {
    return keep(__capsule_run_interrupt(&RootEntry, start(N), Limit));
  }
  capsule_t *resumeFor(capsule_t *C, uint64_t Limit) {
    return keep(capsule_resume_for(C, Limit));
  }
  void release(capsule_t *C) {
    ASSERT_FALSE(Made.empty());
    ASSERT_EQ(Made.back(), C);
    capsule_release(C);
    Made.pop_back();
  }
  double resume(capsule_t *C) {
    double Result = -1;
    capsule_resume(C, &Result);
    return Result;
  }

  std::vector<capsule_t *> Made;
};

constexpr int64_t N = 40;

TEST_F(InterruptTest, PrimopsRunsToTheEndAndCountsSteps) {
  uint64_t Steps = __capsule_run_primops(&RootEntry, start(N));
  EXPECT_EQ(Steps, referenceSteps(N));
  EXPECT_EQ(rootFrame()->Result, reference(N));
  EXPECT_EQ(stats().last_run_steps, Steps);
  EXPECT_EQ(stats().live_capsules, 0u);
  // Nothing is journaled without a live capsule.
  EXPECT_EQ(stats().journal_bytes, 0u);
  EXPECT_EQ(__capsule_run_primops(&RootEntry, start(0)), referenceSteps(0));
}

TEST_F(InterruptTest, InterruptAtAnyLimitThenResumeGivesTheSameResult) {
  uint64_t Total = referenceSteps(N);
  for (uint64_t Limit = 0; Limit <= Total + 3; ++Limit) {
    capsule_t *C = interrupt(N, Limit);
    if (!C) {
      // The run ended first: no yield point was left at or after Limit.
      EXPECT_GT(Limit + MaxOvershoot, Total) << Limit;
      EXPECT_EQ(rootFrame()->Result, reference(N)) << Limit;
      EXPECT_EQ(stats().last_run_steps, Total) << Limit;
      continue;
    }
    EXPECT_GE(capsule_steps(C), Limit);
    EXPECT_LE(capsule_steps(C), Limit + MaxOvershoot);
    EXPECT_LT(capsule_steps(C), Total);
    EXPECT_EQ(resume(C), reference(N)) << Limit;
    EXPECT_EQ(stats().last_run_steps, Total) << Limit;
    release(C);
  }
  // Any limit past the last yield point runs to the end.
  EXPECT_EQ(interrupt(N, UINT64_MAX), nullptr);
  EXPECT_EQ(stats().last_run_steps, Total);
}

TEST_F(InterruptTest, ResumeForChainsAddUpToTheWholeRun) {
  uint64_t Total = referenceSteps(N);
  for (uint64_t Limit : {1, 2, 3, 7, 25, 100}) {
    std::vector<capsule_t *> Chain;
    capsule_t *C = interrupt(N, Limit);
    uint64_t Previous = 0;
    while (C) {
      Chain.push_back(C);
      EXPECT_GE(capsule_steps(C), Previous + Limit);
      EXPECT_LE(capsule_steps(C), Previous + Limit + MaxOvershoot);
      Previous = capsule_steps(C);
      C = resumeFor(C, Limit);
    }
    EXPECT_GT(Chain.size(), Total / (Limit + MaxOvershoot) - 1);
    EXPECT_EQ(stats().live_capsules, Chain.size());
    EXPECT_EQ(stats().last_run_steps, Total);
    EXPECT_EQ(rootFrame()->Result, reference(N));
    // Every capsule of the chain still resumes to the same end, newest
    // first.
    while (!Chain.empty()) {
      EXPECT_EQ(resume(Chain.back()), reference(N));
      EXPECT_EQ(stats().last_run_steps, Total);
      release(Chain.back());
      Chain.pop_back();
    }
  }
}

// The bytes a run of root leaves behind: both frames and the heap buffer.
std::vector<unsigned char> memoryImage() {
  constexpr size_t FrameBytes = sizeof(RootFrame) + sizeof(CalleeFrame);
  constexpr size_t BufBytes = BufLen * sizeof(double);
  RootFrame *F = rootFrame();
  std::vector<unsigned char> Image(FrameBytes + BufBytes);
  std::memcpy(Image.data(), F, FrameBytes);
  std::memcpy(Image.data() + FrameBytes, F->Buf, BufBytes);
  return Image;
}

TEST_F(InterruptTest, ResumingTheSameCapsuleTwiceGivesIdenticalResults) {
  capsule_t *C = interrupt(N, referenceSteps(N) / 3);
  ASSERT_NE(C, nullptr);
  double First = resume(C);
  std::vector<unsigned char> Image = memoryImage();
  uint64_t Carved = arenaStats().CarvedBytes;
  double Second = resume(C);
  EXPECT_EQ(First, reference(N));
  EXPECT_EQ(Second, First);
  EXPECT_EQ(memoryImage(), Image);
  EXPECT_EQ(arenaStats().CarvedBytes, Carved);

  // The same for partial runs.
  capsule_t *D = resumeFor(C, 50);
  ASSERT_NE(D, nullptr);
  uint64_t Steps = capsule_steps(D);
  std::vector<unsigned char> Partial = memoryImage();
  release(D);
  D = resumeFor(C, 50);
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(capsule_steps(D), Steps);
  EXPECT_EQ(memoryImage(), Partial);
  release(D);
  release(C);
}

TEST_F(InterruptTest, TheHeapBufferGetsTheSameAddressOnEveryResume) {
  // Interrupted before the allocation, at the root's entry.
  capsule_t *C = interrupt(N, 0);
  ASSERT_NE(C, nullptr);
  EXPECT_EQ(capsule_steps(C), 0u);
  capsule_t *D = resumeFor(C, 10);
  ASSERT_NE(D, nullptr);
  double *Buf = rootFrame()->Buf;
  EXPECT_TRUE(arenaContains(Buf));
  release(D);
  for (int Round = 0; Round != 3; ++Round) {
    D = resumeFor(C, 10 + Round);
    ASSERT_NE(D, nullptr);
    EXPECT_EQ(rootFrame()->Buf, Buf);
    release(D);
  }
  release(C);
}

TEST_F(InterruptTest, SeveralLiveCapsulesAreUsedNewestFirst) {
  capsule_t *C1 = interrupt(N, 20);
  capsule_t *C2 = resumeFor(C1, 20);
  capsule_t *C3 = resumeFor(C2, 20);
  ASSERT_TRUE(C1 && C2 && C3);
  EXPECT_LT(capsule_steps(C1), capsule_steps(C2));
  EXPECT_LT(capsule_steps(C2), capsule_steps(C3));
  EXPECT_EQ(stats().live_capsules, 3u);
  EXPECT_EQ(resume(C3), reference(N));
  release(C3);
  EXPECT_EQ(stats().live_capsules, 2u);
  EXPECT_EQ(resume(C2), reference(N));
  EXPECT_EQ(resume(C2), reference(N));
  release(C2);
  EXPECT_EQ(resume(C1), reference(N));
  release(C1);
  EXPECT_EQ(stats().live_capsules, 0u);
}

TEST_F(InterruptTest, AnotherComputationCanRunWhileACapsuleIsLive) {
  capsule_t *C = interrupt(N, 100);
  ASSERT_NE(C, nullptr);
  // A second root activation reuses the base of the frame stack; the
  // journal keeps what C needs.
  EXPECT_EQ(__capsule_run_primops(&RootEntry, start(7)), referenceSteps(7));
  EXPECT_EQ(rootFrame()->Result, reference(7));
  capsule_t *D = interrupt(13, 30);
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(resume(D), reference(13));
  release(D);
  EXPECT_EQ(resume(C), reference(N));
  EXPECT_EQ(stats().last_run_steps, referenceSteps(N));
  release(C);
}

TEST_F(InterruptTest, StatisticsFollowTheJournal) {
  capsule_t *C = interrupt(N, 50);
  ASSERT_NE(C, nullptr);
  // A new capsule owns an empty segment...
  EXPECT_EQ(stats().live_capsules, 1u);
  EXPECT_EQ(stats().newest_journal_bytes, 0u);
  // ...which fills as runs from it store.
  resume(C);
  capsule_interrupt_stats_t S = stats();
  EXPECT_GT(S.newest_journal_bytes, 0u);
  EXPECT_EQ(S.journal_bytes, S.newest_journal_bytes);
  EXPECT_GE(S.peak_journal_bytes, S.journal_bytes);
  EXPECT_EQ(S.newest_journal_bytes % 8, 0u);
  capsule_t *D = resumeFor(C, 10);
  ASSERT_NE(D, nullptr);
  S = stats();
  EXPECT_EQ(S.live_capsules, 2u);
  EXPECT_EQ(S.newest_journal_bytes, 0u);
  EXPECT_GT(S.journal_bytes, 0u);
  release(D);
  release(C);
  S = stats();
  EXPECT_EQ(S.journal_bytes, 0u);
  EXPECT_GT(S.peak_journal_bytes, 0u);
}

TEST_F(InterruptTest, VoidRootsAndNullResultsStoreNothing) {
  capsule_t *C = interrupt(N, 30);
  ASSERT_NE(C, nullptr);
  capsule_resume(C, nullptr);
  EXPECT_EQ(rootFrame()->Result, reference(N));
  release(C);
}

// Misuse. Each death test runs in a fresh child process.
TEST_F(InterruptTest, ReleasingOutOfOrderIsAnError) {
  capsule_t *C1 = interrupt(N, 10);
  capsule_t *C2 = resumeFor(C1, 10);
  ASSERT_NE(C2, nullptr);
  EXPECT_EXIT(capsule_release(C1), testing::ExitedWithCode(4),
              "capsule: error: capsule_release: capsule 0x[0-9a-f]+ \\(of "
              "root, [0-9]+ steps\\) is not the newest live capsule; "
              "0x[0-9a-f]+ \\(of root, [0-9]+ steps\\) is, and only the "
              "newest can be released: release the 1 newer capsule first");
}

TEST_F(InterruptTest, ResumingAnOlderCapsuleIsAnError) {
  capsule_t *C1 = interrupt(N, 10);
  capsule_t *C2 = resumeFor(C1, 10);
  capsule_t *C3 = resumeFor(C2, 10);
  ASSERT_NE(C3, nullptr);
  EXPECT_EXIT(capsule_resume(C1, nullptr), testing::ExitedWithCode(4),
              "capsule: error: capsule_resume: capsule 0x[0-9a-f]+ \\(of "
              "root, [0-9]+ steps\\) is not the newest live capsule; .* "
              "only the newest can be resumed: release the 2 newer capsules "
              "first");
  EXPECT_EXIT(capsule_resume_for(C2, 5), testing::ExitedWithCode(4),
              "capsule: error: capsule_resume_for: capsule 0x[0-9a-f]+ .* is "
              "not the newest live capsule");
}

TEST_F(InterruptTest, UsingAReleasedCapsuleIsAnError) {
  capsule_t *C = interrupt(N, 10);
  ASSERT_NE(C, nullptr);
  release(C);
  EXPECT_EXIT(capsule_resume(C, nullptr), testing::ExitedWithCode(4),
              "capsule: error: capsule_resume: capsule 0x[0-9a-f]+ \\(of "
              "root\\) was already released");
  EXPECT_EXIT(capsule_release(C), testing::ExitedWithCode(4),
              "capsule: error: capsule_release: capsule 0x[0-9a-f]+ \\(of "
              "root\\) was already released");
  EXPECT_EXIT(capsule_steps(C), testing::ExitedWithCode(4),
              "capsule_steps: capsule 0x[0-9a-f]+ \\(of root\\) was already "
              "released");
  EXPECT_EXIT(capsule_resume_for(C, 1), testing::ExitedWithCode(4),
              "capsule_resume_for: capsule 0x[0-9a-f]+ \\(of root\\) was "
              "already released");
}

TEST_F(InterruptTest, NullAndForeignCapsulesAreErrors) {
  EXPECT_EXIT(capsule_resume(nullptr, nullptr), testing::ExitedWithCode(4),
              "capsule: error: capsule_resume: the capsule is NULL");
  EXPECT_EXIT(capsule_release(nullptr), testing::ExitedWithCode(4),
              "capsule: error: capsule_release: the capsule is NULL");
  EXPECT_EXIT(capsule_steps(nullptr), testing::ExitedWithCode(4),
              "capsule: error: capsule_steps: the capsule is NULL");
  uint64_t NotACapsule[8] = {};
  EXPECT_EXIT(capsule_resume_for(reinterpret_cast<capsule_t *>(NotACapsule), 1),
              testing::ExitedWithCode(4),
              "capsule: error: capsule_resume_for: 0x[0-9a-f]+ is not a live "
              "capsule");
}

TEST_F(InterruptTest, CapsulesBelongToTheirThread) {
  std::atomic<capsule_t *> Theirs{nullptr};
  std::atomic<bool> Done{false};
  // The thread keeps its capsule live until told to finish (a thread's
  // capsules die with it).
  std::thread Other([&] {
    capsule_t *C = __capsule_run_interrupt(&RootEntry, start(N), 10);
    Theirs.store(C);
    while (!Done.load())
      std::this_thread::yield();
    capsule_release(C);
  });
  while (!Theirs.load())
    std::this_thread::yield();
  EXPECT_EXIT(capsule_steps(Theirs.load()), testing::ExitedWithCode(4),
              "capsule: error: capsule_steps: capsule 0x[0-9a-f]+ \\(of "
              "root\\) was made by another thread");
  Done.store(true);
  Other.join();
}

TEST_F(InterruptTest, EachThreadRunsItsOwnComputations) {
  double Results[2] = {0, 0};
  uint64_t Steps[2] = {0, 0};
  auto Work = [&](int Index, int64_t Size) {
    capsule_t *C = __capsule_run_interrupt(&RootEntry, start(Size), 17);
    capsule_t *D = capsule_resume_for(C, 17);
    capsule_resume(D, &Results[Index]);
    capsule_release(D);
    capsule_resume(C, &Results[Index]);
    capsule_release(C);
    capsule_interrupt_stats_t S;
    capsule_get_interrupt_stats(&S);
    Steps[Index] = S.last_run_steps;
  };
  capsule_t *Mine = interrupt(N, 40);
  std::thread A(Work, 0, 21);
  std::thread B(Work, 1, 33);
  A.join();
  B.join();
  EXPECT_EQ(Results[0], reference(21));
  EXPECT_EQ(Results[1], reference(33));
  EXPECT_EQ(Steps[0], referenceSteps(21));
  EXPECT_EQ(Steps[1], referenceSteps(33));
  EXPECT_EQ(resume(Mine), reference(N));
  release(Mine);
}

uint8_t alwaysYields(void *) { return 1; }
uint8_t yieldsAtZero(void *) {
  __capsule_budget = 0;
  return 1;
}
uint8_t startsAnother(void *) {
  __capsule_root_frame(&RootEntry);
  return 0;
}

// Yields once at its start, then writes an array on its own machine stack,
// as a bounded leaf writes its byval copies: memory below the driver's frame
// that dies with the run.
uint8_t writesItsStack(void *Raw) {
  auto *Resume = static_cast<uint32_t *>(Raw);
  if (*Resume == 0 && __capsule_budget <= 0) {
    store(*Resume, uint32_t(1));
    return 1;
  }
  double Local[16];
  for (int I = 0; I < 16; ++I)
    store(Local[I], double(I));
  asm volatile("" : : "r"(Local) : "memory");
  return 0;
}

// Restoring such memory later would write over whatever frames then occupy
// that stack, so it is not journaled.
TEST_F(InterruptTest, TheMachineStackBelowTheDriverIsNotJournaled) {
  const capsule_entry Entry = {writesItsStack, 64, 0, 0, "stack"};
  capsule_t *C =
      keep(__capsule_run_interrupt(&Entry, __capsule_root_frame(&Entry), 0));
  ASSERT_NE(C, nullptr);
  capsule_resume(C, nullptr);
  EXPECT_EQ(stats().newest_journal_bytes, 0u);
  release(C);
}

TEST_F(InterruptTest, BrokenStepFunctionsAreInternalErrors) {
  const capsule_entry Early = {alwaysYields, 64, 0, 0, "early"};
  EXPECT_DEATH(
      __capsule_run_interrupt(&Early, __capsule_root_frame(&Early), 100),
      "capsule: internal error: the step function of early yielded "
      "with 100 steps of budget left");
  const capsule_entry Endless = {yieldsAtZero, 64, 0, 0, "endless"};
  EXPECT_DEATH(__capsule_run_primops(&Endless, __capsule_root_frame(&Endless)),
               "capsule: internal error: the step function of endless "
               "yielded although its budget was unlimited");
}

TEST_F(InterruptTest, ComputationsDoNotNest) {
  const capsule_entry Outer = {startsAnother, 64, 0, 0, "outer"};
  EXPECT_EXIT(__capsule_run_primops(&Outer, __capsule_root_frame(&Outer)),
              testing::ExitedWithCode(4),
              "capsule: error: __capsule_primops/__capsule_interrupt: called "
              "while the interruptible computation of outer is running on "
              "this thread; interruptible computations do not nest");
}

} // namespace
