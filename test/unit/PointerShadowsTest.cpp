//===- PointerShadowsTest.cpp - Pointer shadows of checkpointed code ------===//
#include "Arena.h"
#include "FrameStack.h"
#include "Journal.h"
#include "RuntimeRegion.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <thread>

using namespace capsule;

namespace {

// The pointer-shadow slots of region memory at P.
void **slots(void *P) {
  return reinterpret_cast<void **>(static_cast<char *>(P) +
                                   2 * __capsule_region_span);
}

void *fakePointer(uintptr_t I) { return reinterpret_cast<void *>(0x1000 + I); }

class PointerShadowsTest : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(threadJournal().depth(), 0u);
    frameStackBase();
  }
  void TearDown() override {
    while (threadJournal().depth())
      threadJournal().releaseTop();
  }
};

TEST_F(PointerShadowsTest, RegionToRegionUsesTheShadowSpan) {
  auto *Src = static_cast<void **>(__capsule_malloc(8 * sizeof(void *)));
  auto *Dst = static_cast<void **>(__capsule_malloc(8 * sizeof(void *)));
  for (int I = 0; I != 8; ++I)
    slots(Src)[I] = fakePointer(I);
  // Given shadows are ignored for region memory.
  __capsule_copy_pointer_shadows(Dst, nullptr, Src, nullptr,
                                 8 * sizeof(void *));
  for (int I = 0; I != 8; ++I)
    EXPECT_EQ(slots(Dst)[I], fakePointer(I)) << I;
  // Overlapping, as memmove.
  __capsule_copy_pointer_shadows(Dst + 1, nullptr, Dst, nullptr,
                                 7 * sizeof(void *));
  EXPECT_EQ(slots(Dst)[0], fakePointer(0));
  for (int I = 1; I != 8; ++I)
    EXPECT_EQ(slots(Dst)[I], fakePointer(I - 1)) << I;
  __capsule_free(Src);
  __capsule_free(Dst);
}

TEST_F(PointerShadowsTest, OutsideTheRegionUsesTheGivenShadows) {
  void *Src[4], *Dst[4];
  void *SrcShadow[4], *DstShadow[4] = {};
  for (int I = 0; I != 4; ++I)
    SrcShadow[I] = fakePointer(10 + I);
  __capsule_copy_pointer_shadows(Dst, DstShadow, Src, SrcShadow, sizeof(Src));
  for (int I = 0; I != 4; ++I)
    EXPECT_EQ(DstShadow[I], fakePointer(10 + I)) << I;

  // Frame stack to outside and back.
  char *Frame = frameStackBase();
  std::memset(Frame, 0, 64);
  auto *FrameSlots = reinterpret_cast<void **>(Frame);
  __capsule_copy_pointer_shadows(Frame, nullptr, Src, SrcShadow, 32);
  for (int I = 0; I != 4; ++I)
    EXPECT_EQ(slots(FrameSlots)[I], fakePointer(10 + I)) << I;
  void *Back[4] = {};
  __capsule_copy_pointer_shadows(Dst, Back, Frame, nullptr, 32);
  for (int I = 0; I != 4; ++I)
    EXPECT_EQ(Back[I], fakePointer(10 + I)) << I;
}

TEST_F(PointerShadowsTest, MissingShadowsMeanNothingToDoOrZero) {
  void *Src[2], *Dst[2];
  void *SrcShadow[2] = {fakePointer(1), fakePointer(2)};
  // No destination shadow: nothing happens (and nothing is read).
  __capsule_copy_pointer_shadows(Dst, nullptr, Src, SrcShadow, sizeof(Src));
  __capsule_copy_pointer_shadows(Dst, nullptr, Src, nullptr, sizeof(Src));
  EXPECT_EQ(SrcShadow[1], fakePointer(2));
  // No source shadow: the destination's become null.
  void *DstShadow[2] = {fakePointer(7), fakePointer(8)};
  __capsule_copy_pointer_shadows(Dst, DstShadow, Src, nullptr, sizeof(Src));
  EXPECT_EQ(DstShadow[0], nullptr);
  EXPECT_EQ(DstShadow[1], nullptr);
  auto *Block = static_cast<void **>(__capsule_malloc(2 * sizeof(void *)));
  slots(Block)[0] = fakePointer(3);
  slots(Block)[1] = fakePointer(4);
  __capsule_copy_pointer_shadows(Block, nullptr, Src, nullptr, sizeof(Src));
  EXPECT_EQ(slots(Block)[0], nullptr);
  EXPECT_EQ(slots(Block)[1], nullptr);
  __capsule_free(Block);
}

TEST_F(PointerShadowsTest, DestinationShadowsAreJournaled) {
  auto *Dst = static_cast<void **>(__capsule_malloc(4 * sizeof(void *)));
  for (int I = 0; I != 4; ++I)
    slots(Dst)[I] = fakePointer(20 + I);
  void *DstShadow[4];
  for (int I = 0; I != 4; ++I)
    DstShadow[I] = fakePointer(30 + I);
  void *Src[4], *SrcShadow[4];
  for (int I = 0; I != 4; ++I)
    SrcShadow[I] = fakePointer(40 + I);
  void *Outside[4];

  Journal &J = threadJournal();
  J.pushSnapshot();
  __capsule_copy_pointer_shadows(Dst, nullptr, Src, SrcShadow,
                                 4 * sizeof(void *));
  __capsule_copy_pointer_shadows(Outside, DstShadow, Src, nullptr,
                                 4 * sizeof(void *));
  EXPECT_EQ(slots(Dst)[2], fakePointer(42));
  EXPECT_EQ(DstShadow[2], nullptr);
  J.rollbackTop();
  for (int I = 0; I != 4; ++I) {
    EXPECT_EQ(slots(Dst)[I], fakePointer(20 + I)) << I;
    EXPECT_EQ(DstShadow[I], fakePointer(30 + I)) << I;
  }
  J.releaseTop();
  __capsule_free(Dst);
}

TEST_F(PointerShadowsTest, ArenaUsableSize) {
  EXPECT_EQ(__capsule_arena_usable_size(nullptr), 0u);
  void *Block = __capsule_malloc(100);
  EXPECT_GE(__capsule_arena_usable_size(Block), 100u);
  EXPECT_EQ(__capsule_arena_usable_size(Block), arenaUsableSize(Block));
  void *Aligned = __capsule_aligned_alloc(256, 40);
  EXPECT_GE(__capsule_arena_usable_size(Aligned), 40u);
  // A block of the C library, as realloc takes too.
  void *Foreign = std::malloc(50);
  EXPECT_EQ(__capsule_arena_usable_size(Foreign), malloc_usable_size(Foreign));
  std::free(Foreign);
  __capsule_free(Aligned);
  __capsule_free(Block);
  EXPECT_DEATH(__capsule_arena_usable_size(Block),
               "capsule: error: realloc\\(0x[0-9a-f]+\\): not a live block");
  void *Theirs = nullptr;
  std::thread Other([&] { Theirs = __capsule_malloc(50); });
  Other.join();
  EXPECT_DEATH(__capsule_arena_usable_size(Theirs),
               "allocated by instrumented code on another thread");
}

} // namespace
