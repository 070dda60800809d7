//===- AdjointTest.cpp - Runtime helpers of the reverse sweep -------------===//
#include "abi.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

namespace {

// The adjoint of memmove(dst, src, n) by its definition: take ddst, zero it,
// then add what was taken into dsrc.
template <typename T> void referenceMoveAdjoint(T *DSrc, T *DDst, size_t N) {
  std::vector<T> Taken(DDst, DDst + N);
  for (size_t I = 0; I != N; ++I)
    DDst[I] = 0;
  for (size_t I = 0; I != N; ++I)
    DSrc[I] += Taken[I];
}

void copyAdjoint(double *DSrc, double *DDst, size_t N) {
  __capsule_copy_adjoint_f64(DSrc, DDst, N * sizeof(double));
}
void copyAdjoint(float *DSrc, float *DDst, size_t N) {
  __capsule_copy_adjoint_f32(DSrc, DDst, N * sizeof(float));
}

// Distinct small integers: every sum is exact, so results compare equal.
template <typename T> std::vector<T> numbered(size_t N) {
  std::vector<T> Values;
  for (size_t I = 0; I != N; ++I)
    Values.push_back(static_cast<T>(I + 1));
  return Values;
}

template <typename T> class CopyAdjointTest : public testing::Test {};
using ElementTypes = testing::Types<double, float>;
TYPED_TEST_SUITE(CopyAdjointTest, ElementTypes);

TYPED_TEST(CopyAdjointTest, DisjointRangesAccumulateAndZero) {
  std::vector<TypeParam> DSrc = numbered<TypeParam>(1000);
  std::vector<TypeParam> DDst = numbered<TypeParam>(1000);
  copyAdjoint(DSrc.data(), DDst.data(), 1000);
  for (size_t I = 0; I != 1000; ++I) {
    EXPECT_EQ(DSrc[I], 2 * static_cast<TypeParam>(I + 1)) << I;
    EXPECT_EQ(DDst[I], 0) << I;
  }
}

TYPED_TEST(CopyAdjointTest, OverlappingRangesMatchTheDefinition) {
  constexpr size_t Buffer = 40, N = 9, Base = 15;
  // Every shift of the destination against the source, both directions,
  // overlapping or just touching.
  for (size_t Dst = Base - N - 1; Dst <= Base + N + 1; ++Dst) {
    std::vector<TypeParam> Got = numbered<TypeParam>(Buffer);
    std::vector<TypeParam> Want = Got;
    copyAdjoint(&Got[Base], &Got[Dst], N);
    if (Dst != Base)
      referenceMoveAdjoint(&Want[Base], &Want[Dst], N);
    EXPECT_EQ(Got, Want) << "dst - src = " << long(Dst) - long(Base);
  }
}

TYPED_TEST(CopyAdjointTest, SameRangeIsANoOp) {
  std::vector<TypeParam> D = numbered<TypeParam>(8);
  copyAdjoint(D.data(), D.data(), 8);
  EXPECT_EQ(D, numbered<TypeParam>(8));
}

TYPED_TEST(CopyAdjointTest, OnlyWholeElementsAreTouched) {
  std::vector<TypeParam> DSrc = numbered<TypeParam>(3);
  std::vector<TypeParam> DDst = numbered<TypeParam>(3);
  void (*CopyAdjoint)(void *, void *, uint64_t) =
      sizeof(TypeParam) == sizeof(double) ? __capsule_copy_adjoint_f64
                                          : __capsule_copy_adjoint_f32;
  CopyAdjoint(DSrc.data(), DDst.data(), 2 * sizeof(TypeParam) + 1);
  EXPECT_EQ(DSrc, (std::vector<TypeParam>{2, 4, 3}));
  EXPECT_EQ(DDst, (std::vector<TypeParam>{0, 0, 3}));
}

TEST(UnknownCallTargetTest, NamesTheSiteAndTheTarget) {
  EXPECT_EXIT(__capsule_unknown_call_target(
                  reinterpret_cast<const void *>(&std::puts), "prog.c:12:3"),
              testing::ExitedWithCode(3),
              "capsule: an indirect call at prog.c:12:3 reached 0x[0-9a-f]+ "
              "\\([_A-Za-z]*puts\\) which has no derivative \\(it is not a "
              "function defined in the differentiated module with a "
              "matching type\\)");
}

TEST(UnknownCallTargetTest, ToleratesUnknownSiteAndNameless) {
  static char NotAFunction[16];
  EXPECT_EXIT(__capsule_unknown_call_target(NotAFunction, nullptr),
              testing::ExitedWithCode(3),
              "an indirect call at an unknown location reached 0x[0-9a-f]+ "
              "which has no derivative");
}

} // namespace
