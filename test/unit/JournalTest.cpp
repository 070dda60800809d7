//===- JournalTest.cpp - Copy-on-first-write journal ----------------------===//
#include "Journal.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <vector>

using namespace capsule;

namespace {

class JournalTest : public testing::Test {
protected:
  void SetUp() override {
    for (size_t I = 0; I != sizeof(Mem); ++I)
      Mem[I] = static_cast<unsigned char>(I * 7 + 3);
    std::memcpy(Original, Mem, sizeof(Mem));
  }
  void TearDown() override { J.freeAll(); }

  // A journaled store, as generated code does it.
  template <typename T> void store(T *Addr, T Value) {
    J.write(Addr, sizeof(T));
    std::memcpy(Addr, &Value, sizeof(T));
  }
  void storeBytes(size_t Offset, size_t Bytes, unsigned char Value) {
    if (!savedPerFilter(Offset, Bytes))
      J.write(Mem + Offset, Bytes);
    std::memset(Mem + Offset, Value, Bytes);
  }
  // The test generated code makes before calling in, once the journal
  // keeps Filter (a small one, so that granules evict each other).
  void useFilter() { J.cacheSavedGranules(Filter, FilterSlots); }
  bool savedPerFilter(size_t Offset, size_t Bytes) const {
    uintptr_t Addr = reinterpret_cast<uintptr_t>(Mem + Offset);
    uintptr_t Granule = Addr & ~uintptr_t(7);
    return J.depth() && Offset % 8 + Bytes <= 8 &&
           Filter[(Granule >> 3) % FilterSlots] == Granule;
  }
  void randomOperationsMatchAModel();
  bool intact() const { return std::memcmp(Mem, Original, sizeof(Mem)) == 0; }
  uint64_t *word(size_t Index) {
    return reinterpret_cast<uint64_t *>(Mem) + Index;
  }

  static constexpr uint64_t FilterSlots = 16;
  uintptr_t Filter[FilterSlots] = {};
  Journal J;
  alignas(64) unsigned char Mem[512];
  unsigned char Original[512];
};

TEST_F(JournalTest, WritesWithoutASnapshotSaveNothing) {
  store(word(0), uint64_t(1));
  EXPECT_EQ(J.depth(), 0u);
  EXPECT_EQ(J.totalBytes(), 0u);
  EXPECT_EQ(J.topBytes(), 0u);
  J.rollbackTop(); // nothing to roll back
  EXPECT_EQ(*word(0), 1u);
}

TEST_F(JournalTest, RollbackRestoresAndKeepsTheSnapshot) {
  J.pushSnapshot();
  store(word(1), uint64_t(42));
  store(word(5), uint64_t(43));
  EXPECT_FALSE(intact());
  J.rollbackTop();
  EXPECT_TRUE(intact());
  EXPECT_EQ(J.depth(), 1u);
  EXPECT_EQ(J.topBytes(), 0u);
  // The snapshot is still live: new stores are saved again.
  store(word(1), uint64_t(44));
  EXPECT_EQ(J.topBytes(), 8u);
  J.rollbackTop();
  EXPECT_TRUE(intact());
}

TEST_F(JournalTest, EachGranuleIsSavedOncePerSnapshot) {
  J.pushSnapshot();
  for (uint64_t I = 0; I != 100; ++I)
    store(word(3), I);
  // Different sizes and offsets within the same granule.
  store(reinterpret_cast<uint32_t *>(word(3)) + 1, uint32_t(7));
  store(reinterpret_cast<unsigned char *>(word(3)) + 2, (unsigned char)9);
  EXPECT_EQ(J.topBytes(), 8u);
  EXPECT_EQ(J.totalBytes(), 8u);
  // The value saved is the one before the first store, not a later one.
  J.rollbackTop();
  EXPECT_TRUE(intact());
}

TEST_F(JournalTest, RollingBackTheInnerSnapshotKeepsTheOuterState) {
  J.pushSnapshot();
  store(word(0), uint64_t(1));
  J.pushSnapshot();
  EXPECT_EQ(J.depth(), 2u);
  store(word(0), uint64_t(2));
  store(word(1), uint64_t(3));
  EXPECT_EQ(J.segmentBytes(0), 8u);
  EXPECT_EQ(J.segmentBytes(1), 16u);
  J.rollbackTop();
  EXPECT_EQ(*word(0), 1u); // as at the inner snapshot
  EXPECT_EQ(std::memcmp(word(1), Original + 8, 8), 0);
  EXPECT_EQ(J.depth(), 2u);
  J.releaseTop();
  J.rollbackTop();
  EXPECT_TRUE(intact());
}

TEST_F(JournalTest, ReleaseMergesIntoTheParentAndTheParentsValueWins) {
  J.pushSnapshot();
  store(word(0), uint64_t(1)); // parent saves the original
  J.pushSnapshot();
  store(word(0), uint64_t(2)); // child saves 1
  store(word(1), uint64_t(3)); // child saves the original
  J.releaseTop();
  EXPECT_EQ(J.depth(), 1u);
  // word 0's entry was dropped (the parent has one), word 1's moved over.
  EXPECT_EQ(J.topBytes(), 16u);
  EXPECT_EQ(J.totalBytes(), 16u);
  // Memory is left as it is...
  EXPECT_EQ(*word(0), 2u);
  EXPECT_EQ(*word(1), 3u);
  // ...and the parent now covers word 1 too: no second entry for it.
  store(word(1), uint64_t(4));
  EXPECT_EQ(J.topBytes(), 16u);
  J.rollbackTop();
  EXPECT_TRUE(intact());
}

TEST_F(JournalTest, ReleasingAnOlderSnapshotMergesItDownAndKeepsTheNewer) {
  J.pushSnapshot();
  store(word(0), uint64_t(1)); // the oldest saves the original
  J.pushSnapshot();
  store(word(0), uint64_t(2)); // the middle one saves 1...
  store(word(1), uint64_t(3)); // ...and the original
  J.pushSnapshot();
  store(word(1), uint64_t(4)); // the newest saves 3
  store(word(2), uint64_t(5)); // and the original
  J.release(1);
  EXPECT_EQ(J.depth(), 2u);
  // The middle one's word 1 moved down; its word 0 went (the oldest has it).
  EXPECT_EQ(J.segmentBytes(0), 16u);
  EXPECT_EQ(J.segmentBytes(1), 16u);
  EXPECT_EQ(*word(1), 4u);
  // The newest still rolls back to its own time.
  J.rollbackTop();
  EXPECT_EQ(*word(0), 2u);
  EXPECT_EQ(*word(1), 3u);
  uint64_t Word2;
  std::memcpy(&Word2, Original + 16, sizeof Word2);
  EXPECT_EQ(*word(2), Word2);
  J.releaseTop();
  J.rollbackTop();
  EXPECT_TRUE(intact());
  J.release(0); // the newest, as releaseTop
  EXPECT_EQ(J.depth(), 0u);
  J.release(0); // nothing to release
}

TEST_F(JournalTest, ReleasingTheLastSnapshotDropsItsEntries) {
  J.pushSnapshot();
  store(word(2), uint64_t(5));
  J.releaseTop();
  EXPECT_EQ(J.depth(), 0u);
  EXPECT_EQ(J.totalBytes(), 0u);
  EXPECT_EQ(*word(2), 5u);
  J.releaseTop(); // nothing to release
  EXPECT_EQ(J.depth(), 0u);
}

TEST_F(JournalTest, UnalignedAndMultiGranuleWrites) {
  J.pushSnapshot();
  storeBytes(3, 2, 0xAA); // inside granule 0
  EXPECT_EQ(J.topBytes(), 8u);
  storeBytes(6, 4, 0xBB); // granules 0 (saved) and 1
  EXPECT_EQ(J.topBytes(), 16u);
  storeBytes(20, 30, 0xCC); // [20, 50): granules 2 to 6
  EXPECT_EQ(J.topBytes(), 56u);
  storeBytes(63, 2, 0xDD); // granules 7 and 8
  EXPECT_EQ(J.topBytes(), 72u);
  storeBytes(100, 1, 0xEE); // granule 12
  EXPECT_EQ(J.topBytes(), 80u);
  J.rollbackTop();
  EXPECT_TRUE(intact());
}

TEST_F(JournalTest, PayloadBytesCountGranulesAndPeakStays) {
  J.pushSnapshot();
  uint64_t Bound = 0;
  std::set<size_t> Granules;
  for (size_t Offset = 0; Offset < 200; Offset += 13) {
    size_t Bytes = 1 + Offset % 11;
    storeBytes(Offset, Bytes, static_cast<unsigned char>(Offset));
    size_t First = Offset / 8, Last = (Offset + Bytes - 1) / 8;
    for (size_t G = First; G <= Last; ++G)
      Granules.insert(G);
    // Never more than the bytes written rounded out to whole granules.
    Bound += (Last - First + 1) * 8;
    EXPECT_LE(J.topBytes(), Bound);
    EXPECT_EQ(J.topBytes(), Granules.size() * 8);
  }
  uint64_t First = J.topBytes();
  EXPECT_EQ(J.peakBytes(), First);
  J.pushSnapshot();
  storeBytes(0, 80, 0);
  EXPECT_EQ(J.topBytes(), 80u);
  EXPECT_EQ(J.totalBytes(), First + 80);
  EXPECT_EQ(J.peakBytes(), First + 80);
  J.rollbackTop();
  EXPECT_EQ(J.totalBytes(), First);
  EXPECT_EQ(J.peakBytes(), First + 80);
  J.releaseTop();
  J.releaseTop();
  EXPECT_EQ(J.totalBytes(), 0u);
  EXPECT_EQ(J.peakBytes(), First + 80);
  J.resetPeak();
  EXPECT_EQ(J.peakBytes(), 0u);
}

TEST_F(JournalTest, ManyGranulesGrowTheTablesAndStillRollBack) {
  std::vector<uint64_t> Big(200000);
  for (size_t I = 0; I != Big.size(); ++I)
    Big[I] = I;
  J.pushSnapshot();
  for (size_t I = 0; I != Big.size(); I += 2)
    store(&Big[I], uint64_t(0));
  J.pushSnapshot();
  for (size_t I = 0; I != Big.size(); ++I)
    store(&Big[I], uint64_t(1));
  EXPECT_EQ(J.segmentBytes(0), Big.size() / 2 * 8);
  EXPECT_EQ(J.segmentBytes(1), Big.size() * 8);
  J.releaseTop();
  // The odd words came over from the child; the even ones were the parent's.
  EXPECT_EQ(J.totalBytes(), Big.size() * 8);
  J.rollbackTop();
  for (size_t I = 0; I != Big.size(); ++I)
    ASSERT_EQ(Big[I], I) << I;
  J.releaseTop();
}

// Random stores, snapshots, rollbacks and releases (of the newest snapshot
// and of any other) against a model that keeps a copy of memory for every
// live snapshot.
void JournalTest::randomOperationsMatchAModel() {
  std::mt19937 Random(12345);
  std::vector<std::vector<unsigned char>> Images;
  auto Now = [&] { return std::vector<unsigned char>(Mem, Mem + sizeof(Mem)); };
  for (int Step = 0; Step != 20000; ++Step) {
    unsigned Op = Random() % 100;
    if (Op < 70) {
      size_t Bytes = 1 + Random() % 24;
      size_t Offset = Random() % (sizeof(Mem) - Bytes + 1);
      storeBytes(Offset, Bytes, static_cast<unsigned char>(Random()));
    } else if (Op < 80 && Images.size() < 12) {
      J.pushSnapshot();
      Images.push_back(Now());
    } else if (Op < 92 && !Images.empty()) {
      J.rollbackTop();
      ASSERT_EQ(Now(), Images.back()) << "step " << Step;
    } else if (!Images.empty() && Op < 96) {
      J.releaseTop();
      Images.pop_back();
    } else if (!Images.empty()) {
      uint32_t Level = Random() % Images.size();
      J.release(Level);
      Images.erase(Images.begin() + Level);
    }
    ASSERT_EQ(J.depth(), Images.size());
    uint64_t Sum = 0;
    for (uint32_t Level = 0; Level != J.depth(); ++Level) {
      Sum += J.segmentBytes(Level);
      ASSERT_LE(J.segmentBytes(Level), sizeof(Mem));
    }
    ASSERT_EQ(Sum, J.totalBytes());
  }
  // Rolling back each snapshot in turn gives back its copy.
  while (!Images.empty()) {
    J.rollbackTop();
    ASSERT_EQ(Now(), Images.back());
    J.releaseTop();
    Images.pop_back();
  }
}

TEST_F(JournalTest, RandomOperationsMatchAModel) {
  randomOperationsMatchAModel();
}

// Stores the filter lets through without calling in must still be
// restored: the filter may only name granules the newest snapshot saved.
TEST_F(JournalTest, RandomOperationsMatchAModelWithTheFilter) {
  useFilter();
  randomOperationsMatchAModel();
}

TEST_F(JournalTest, TheFilterNamesGranulesTheNewestSnapshotSaved) {
  useFilter();
  auto Cached = [&](size_t Index) { return savedPerFilter(Index * 8, 8); };
  J.pushSnapshot();
  EXPECT_FALSE(Cached(2));
  store(word(2), uint64_t(5));
  EXPECT_TRUE(Cached(2));
  // A write over three granules caches each of them.
  storeBytes(8 * 4 + 4, 16, 1);
  EXPECT_TRUE(Cached(4) && Cached(5) && Cached(6));
  // Every change of the newest snapshot empties the filter.
  J.pushSnapshot();
  EXPECT_FALSE(Cached(2));
  store(word(2), uint64_t(6));
  J.releaseTop();
  EXPECT_FALSE(Cached(2));
  store(word(2), uint64_t(7));
  EXPECT_TRUE(Cached(2));
  J.rollbackTop();
  EXPECT_FALSE(Cached(2));
  EXPECT_TRUE(intact());
}

TEST(ThreadJournalTest, DepthIsMirroredForGeneratedCode) {
  Journal &J = threadJournal();
  ASSERT_EQ(J.depth(), 0u);
  EXPECT_EQ(__capsule_journal_depth, 0u);
  alignas(8) uint64_t X = 1;
  J.pushSnapshot();
  J.pushSnapshot();
  EXPECT_EQ(__capsule_journal_depth, 2u);
  journalWrite(&X, sizeof(X));
  X = 2;
  EXPECT_EQ(J.topBytes(), 8u);
  J.rollbackTop();
  EXPECT_EQ(X, 1u);
  J.releaseTop();
  EXPECT_EQ(__capsule_journal_depth, 1u);
  J.releaseTop();
  EXPECT_EQ(__capsule_journal_depth, 0u);
  // With no snapshot live, generated code does not even call in.
  journalWrite(&X, sizeof(X));
  EXPECT_EQ(J.totalBytes(), 0u);
}

} // namespace
