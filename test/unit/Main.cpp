//===- Main.cpp - Entry point of the runtime's unit tests -----------------===//
#include <gtest/gtest.h>

int main(int argc, char **argv) {
  // Death tests re-run the test binary instead of forking it, so a child
  // starts with fresh runtime state: no cached CAPSULE_TAPE_LIMIT or
  // CAPSULE_STATS, no tape.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
