//===- ArenaTest.cpp - Deterministic allocator for interruptible code -----===//
#include "Arena.h"
#include "Journal.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace capsule;

namespace {

// A store of instrumented code: journaled first.
void fillBlock(void *P, uint64_t Bytes, unsigned char Value) {
  journalWrite(P, Bytes);
  std::memset(P, Value, Bytes);
}

bool allBytes(const void *P, uint64_t Bytes, unsigned char Value) {
  auto *C = static_cast<const unsigned char *>(P);
  for (uint64_t I = 0; I != Bytes; ++I)
    if (C[I] != Value)
      return false;
  return true;
}

bool aligned(const void *P, uint64_t Alignment) {
  return reinterpret_cast<uintptr_t>(P) % Alignment == 0;
}

class ArenaTest : public testing::Test {
protected:
  void SetUp() override { ASSERT_EQ(threadJournal().depth(), 0u); }
  void TearDown() override {
    while (threadJournal().depth())
      threadJournal().releaseTop();
  }
};

TEST_F(ArenaTest, MallocOfZeroBytesGivesDistinctBlocks) {
  void *A = __capsule_malloc(0);
  void *B = __capsule_malloc(0);
  ASSERT_NE(A, nullptr);
  ASSERT_NE(B, nullptr);
  EXPECT_NE(A, B);
  EXPECT_TRUE(arenaContains(A));
  EXPECT_GE(arenaUsableSize(A), 1u);
  __capsule_free(A);
  __capsule_free(B);
  __capsule_free(nullptr); // no-op
}

TEST_F(ArenaTest, BlocksAreAlignedAndHoldWhatWasAskedFor) {
  std::vector<void *> Blocks;
  for (uint64_t Bytes : {1, 7, 15, 16, 17, 31, 32, 100, 1000, 4096, 70000}) {
    void *P = __capsule_malloc(Bytes);
    ASSERT_NE(P, nullptr);
    EXPECT_TRUE(aligned(P, 16)) << Bytes;
    EXPECT_GE(arenaUsableSize(P), Bytes);
    std::memset(P, 0x11, Bytes);
    Blocks.push_back(P);
  }
  for (uint64_t Alignment = 1; Alignment <= 4096; Alignment *= 2)
    for (uint64_t Bytes : {1, 24, 100, 5000}) {
      void *P = __capsule_aligned_alloc(Alignment, Bytes);
      ASSERT_NE(P, nullptr);
      EXPECT_TRUE(aligned(P, Alignment < 16 ? 16 : Alignment))
          << Alignment << " " << Bytes;
      EXPECT_GE(arenaUsableSize(P), Bytes);
      std::memset(P, 0x22, Bytes);
      Blocks.push_back(P);
    }
  for (void *P : Blocks)
    __capsule_free(P);
}

TEST_F(ArenaTest, AlignedBlocksAreRecycledAndStillAligned) {
  void *P = __capsule_aligned_alloc(4096, 100);
  __capsule_free(P);
  // The freed block serves plain requests of its class...
  void *Q = __capsule_malloc(4096);
  EXPECT_TRUE(aligned(Q, 16));
  __capsule_free(Q);
  // ...and aligned ones again, at an aligned address inside it.
  void *R = __capsule_aligned_alloc(4096, 100);
  EXPECT_TRUE(aligned(R, 4096));
  __capsule_free(R);
}

TEST_F(ArenaTest, InvalidAlignmentsAreRefused) {
  for (uint64_t Alignment :
       {uint64_t(0), uint64_t(3), uint64_t(24), MaxArenaAlignment * 2}) {
    errno = 0;
    EXPECT_EQ(__capsule_aligned_alloc(Alignment, 16), nullptr) << Alignment;
    EXPECT_EQ(errno, EINVAL);
  }
}

TEST_F(ArenaTest, ImpossibleRequestsReturnNull) {
  errno = 0;
  EXPECT_EQ(__capsule_malloc(UINT64_MAX - 8), nullptr);
  EXPECT_EQ(errno, ENOMEM);
  errno = 0;
  EXPECT_EQ(__capsule_calloc(uint64_t(1) << 40, uint64_t(1) << 40), nullptr);
  EXPECT_EQ(errno, ENOMEM);
}

TEST_F(ArenaTest, FreeListsAreLifo) {
  void *A = __capsule_malloc(100);
  void *B = __capsule_malloc(100);
  __capsule_free(A);
  __capsule_free(B);
  EXPECT_EQ(__capsule_malloc(100), B);
  EXPECT_EQ(__capsule_malloc(90), A); // same class
  __capsule_free(A);
  __capsule_free(B);
}

TEST_F(ArenaTest, CallocZeroesARecycledBlock) {
  void *P = __capsule_malloc(256);
  std::memset(P, 0xFF, 256);
  __capsule_free(P);
  void *Q = __capsule_calloc(32, 8);
  ASSERT_EQ(Q, P); // the same block, so the zeroing was needed
  EXPECT_TRUE(allBytes(Q, 256, 0));
  __capsule_free(Q);
}

TEST_F(ArenaTest, ReallocPreservesContents) {
  auto *P = static_cast<unsigned char *>(__capsule_malloc(10));
  for (int I = 0; I != 10; ++I)
    P[I] = static_cast<unsigned char>(I + 1);
  auto *Q = static_cast<unsigned char *>(__capsule_realloc(P, 1000));
  ASSERT_NE(Q, nullptr);
  EXPECT_NE(Q, P);
  for (int I = 0; I != 10; ++I)
    EXPECT_EQ(Q[I], I + 1);
  // Shrinking, or growing within the block, keeps it.
  EXPECT_EQ(__capsule_realloc(Q, 5), Q);
  EXPECT_EQ(__capsule_realloc(Q, arenaUsableSize(Q)), Q);
  EXPECT_EQ(Q[4], 5);
  // realloc(NULL, n) allocates; realloc(p, 0) frees (as glibc does).
  void *R = __capsule_realloc(nullptr, 40);
  EXPECT_TRUE(arenaContains(R));
  EXPECT_EQ(__capsule_realloc(R, 0), nullptr);
  EXPECT_EQ(__capsule_malloc(40), R); // R was freed
  __capsule_free(R);
  __capsule_free(Q);
}

// A mixed sequence of allocator calls and stores, driven by a fixed seed.
// Returns every pointer it got and a checksum of the live blocks after each
// step. Live holds the blocks it may free or reallocate.
struct Trace {
  std::vector<void *> Pointers;
  std::vector<uint64_t> Sums;
  bool operator==(const Trace &O) const {
    return Pointers == O.Pointers && Sums == O.Sums;
  }
};

uint64_t checksum(const std::vector<std::pair<void *, uint64_t>> &Live) {
  uint64_t Sum = 0;
  for (auto &[P, Bytes] : Live)
    for (uint64_t I = 0; I != Bytes; ++I)
      Sum = Sum * 31 + static_cast<unsigned char *>(P)[I];
  return Sum;
}

Trace mixedSequence(std::vector<std::pair<void *, uint64_t>> Live) {
  std::mt19937 Random(2024);
  Trace T;
  for (int Step = 0; Step != 400; ++Step) {
    unsigned Op = Random() % 6;
    uint64_t Bytes = 1 + Random() % (Random() % 8 == 0 ? 20000 : 300);
    unsigned char Value = static_cast<unsigned char>(Random());
    size_t Pick = Live.empty() ? 0 : Random() % Live.size();
    void *P = nullptr;
    if (Op == 0 || Live.empty()) {
      P = __capsule_malloc(Bytes);
      fillBlock(P, Bytes, Value);
      Live.push_back({P, Bytes});
    } else if (Op == 1) {
      P = __capsule_calloc(Bytes, 1);
      Live.push_back({P, Bytes});
    } else if (Op == 2) {
      uint64_t Alignment = uint64_t(1) << (Random() % 13);
      P = __capsule_aligned_alloc(Alignment, Bytes);
      fillBlock(P, Bytes, Value);
      Live.push_back({P, Bytes});
    } else if (Op == 3) {
      auto &[Old, OldBytes] = Live[Pick];
      P = __capsule_realloc(Old, Bytes);
      if (Bytes > OldBytes)
        fillBlock(static_cast<char *>(P) + OldBytes, Bytes - OldBytes, Value);
      Live[Pick] = {P, Bytes};
    } else {
      __capsule_free(Live[Pick].first);
      Live.erase(Live.begin() + Pick);
    }
    T.Pointers.push_back(P);
    T.Sums.push_back(checksum(Live));
  }
  for (auto &[P, Bytes] : Live)
    __capsule_free(P);
  return T;
}

TEST_F(ArenaTest, ReexecutionAfterRollbackGetsTheSameAddresses) {
  // Blocks live when the snapshot is taken, which the sequence frees and
  // reallocates (and whose blocks calloc may then recycle).
  std::vector<std::pair<void *, uint64_t>> Before;
  for (int I = 0; I != 30; ++I) {
    uint64_t Bytes = 8 + I * 37;
    void *P = __capsule_malloc(Bytes);
    std::memset(P, 0x40 + I, Bytes);
    Before.push_back({P, Bytes});
  }
  Journal &J = threadJournal();
  uint64_t Carved = arenaStats().CarvedBytes;
  J.pushSnapshot();
  Trace First = mixedSequence(Before);
  uint64_t CarvedAfter = arenaStats().CarvedBytes;
  EXPECT_GT(CarvedAfter, Carved);
  J.rollbackTop();
  EXPECT_EQ(arenaStats().CarvedBytes, Carved);
  // The blocks are live again, with their contents.
  for (int I = 0; I != 30; ++I) {
    EXPECT_TRUE(allBytes(Before[I].first, Before[I].second, 0x40 + I)) << I;
    EXPECT_GE(arenaUsableSize(Before[I].first), Before[I].second);
  }
  Trace Second = mixedSequence(Before);
  EXPECT_TRUE(First == Second);
  EXPECT_EQ(arenaStats().CarvedBytes, CarvedAfter);
  // Once more from the same snapshot.
  J.rollbackTop();
  EXPECT_TRUE(mixedSequence(Before) == First);
  J.rollbackTop();
  J.releaseTop();
  for (auto &[P, Bytes] : Before)
    __capsule_free(P);
}

TEST_F(ArenaTest, ABlockFreedAfterASnapshotKeepsItsContentsWhenRecycled) {
  void *X = __capsule_malloc(100);
  std::memset(X, 0x5A, 100);
  Journal &J = threadJournal();
  J.pushSnapshot();
  __capsule_free(X);
  // calloc and realloc recycle X's block and overwrite it themselves.
  void *Y = __capsule_calloc(1, 100);
  ASSERT_EQ(Y, X);
  __capsule_free(Y);
  void *Small = __capsule_malloc(8);
  fillBlock(Small, 8, 0x77);
  void *Z = __capsule_realloc(Small, 100);
  ASSERT_EQ(Z, X);
  J.rollbackTop();
  EXPECT_TRUE(allBytes(X, 100, 0x5A));
  J.releaseTop();
  __capsule_free(X);
}

TEST_F(ArenaTest, NestedSnapshotsRestoreTheirOwnAllocations) {
  Journal &J = threadJournal();
  J.pushSnapshot();
  void *A = __capsule_malloc(64);
  J.pushSnapshot();
  void *B = __capsule_malloc(64);
  __capsule_free(A);
  J.rollbackTop();
  // A is live again and B was never allocated: the next one is B again.
  EXPECT_EQ(__capsule_malloc(64), B);
  J.releaseTop();
  J.rollbackTop();
  // Back before A.
  EXPECT_EQ(__capsule_malloc(64), A);
  J.releaseTop();
  __capsule_free(A);
}

TEST_F(ArenaTest, ForeignBlocksGoToLibcUnlessACapsuleIsLive) {
  ArenaStats Start = arenaStats();
  void *P = std::malloc(100);
  EXPECT_FALSE(arenaContains(P));
  __capsule_free(P);
  EXPECT_EQ(arenaStats().ForeignFrees, Start.ForeignFrees + 1);
  EXPECT_EQ(arenaStats().LeakedForeignFrees, Start.LeakedForeignFrees);

  void *Q = std::malloc(100);
  std::memset(Q, 0x33, 100);
  threadJournal().pushSnapshot();
  __capsule_free(Q);
  EXPECT_EQ(arenaStats().ForeignFrees, Start.ForeignFrees + 1);
  EXPECT_EQ(arenaStats().LeakedForeignFrees, Start.LeakedForeignFrees + 1);
  // Leaked, so a rollback finds it intact.
  threadJournal().rollbackTop();
  EXPECT_TRUE(allBytes(Q, 100, 0x33));
  threadJournal().releaseTop();
  std::free(Q);
}

TEST_F(ArenaTest, ReallocOfAForeignBlockMovesItIntoTheArena) {
  ArenaStats Start = arenaStats();
  auto *P = static_cast<unsigned char *>(std::malloc(40));
  for (int I = 0; I != 40; ++I)
    P[I] = static_cast<unsigned char>(I);
  auto *Q = static_cast<unsigned char *>(__capsule_realloc(P, 200));
  EXPECT_TRUE(arenaContains(Q));
  for (int I = 0; I != 40; ++I)
    EXPECT_EQ(Q[I], I);
  EXPECT_EQ(arenaStats().ForeignFrees, Start.ForeignFrees + 1);

  auto *R = static_cast<unsigned char *>(std::malloc(40));
  std::memset(R, 9, 40);
  threadJournal().pushSnapshot();
  auto *S = static_cast<unsigned char *>(__capsule_realloc(R, 10));
  EXPECT_TRUE(arenaContains(S));
  EXPECT_TRUE(allBytes(S, 10, 9));
  EXPECT_EQ(arenaStats().LeakedForeignFrees, Start.LeakedForeignFrees + 1);
  threadJournal().releaseTop();
  std::free(R);
  __capsule_free(S);
  __capsule_free(Q);
}

TEST_F(ArenaTest, FreeingTwiceIsCaught) {
  void *P = __capsule_malloc(32);
  __capsule_free(P);
  EXPECT_DEATH(__capsule_free(P),
               "capsule: error: free\\(0x[0-9a-f]+\\): not a live block "
               "allocated by instrumented code on this thread");
  void *Q = __capsule_aligned_alloc(256, 32);
  __capsule_free(Q);
  EXPECT_DEATH(__capsule_free(Q), "not a live block");
  EXPECT_DEATH(
      __capsule_realloc(static_cast<char *>(__capsule_malloc(64)) + 16, 100),
      "capsule: error: realloc\\(0x[0-9a-f]+\\): not a live block");
}

TEST_F(ArenaTest, EachThreadHasItsOwnArena) {
  void *Mine = __capsule_malloc(50);
  void *Theirs = nullptr;
  bool TheirsInTheirs = false, MineInTheirs = true;
  std::thread Other([&] {
    Theirs = __capsule_malloc(50);
    TheirsInTheirs = arenaContains(Theirs);
    MineInTheirs = arenaContains(Mine);
    __capsule_free(Theirs);
  });
  Other.join();
  EXPECT_TRUE(TheirsInTheirs);
  EXPECT_FALSE(MineInTheirs);
  EXPECT_FALSE(arenaContains(Theirs));
  __capsule_free(Mine);
}

TEST_F(ArenaTest, FreeingAnotherThreadsBlockIsCaught) {
  void *Theirs = nullptr;
  std::thread Other([&] { Theirs = __capsule_malloc(50); });
  Other.join();
  EXPECT_DEATH(__capsule_free(Theirs),
               "capsule: error: free\\(0x[0-9a-f]+\\): the block was "
               "allocated by instrumented code on another thread");
}

} // namespace
