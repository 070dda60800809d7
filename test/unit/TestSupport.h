//===- TestSupport.h - Helpers shared by the runtime's unit tests ---------===//
#ifndef CAPSULE_TEST_UNIT_TESTSUPPORT_H
#define CAPSULE_TEST_UNIT_TESTSUPPORT_H

#include "Tape.h"

#include "capsule/capsule.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace capsule {

/// Tests of the tape: small chunks, so a few thousand bytes cross many chunk
/// boundaries, and no spare chunk or limit left from another test.
class SmallTapeChunksTest : public testing::Test {
protected:
  static constexpr uint64_t SmallChunk = 256;
  void SetUp() override {
    capsule_set_tape_limit(0);
    setTapeChunkBytes(SmallChunk);
    tapeFree();
  }
  void TearDown() override {
    tapeFree();
    setTapeChunkBytes(DefaultChunkBytes);
    capsule_set_tape_limit(0);
  }
};

/// Sets environment variable Name for the lifetime of the object. Death tests
/// re-run the test in a child process that reads it; unsetting it afterwards
/// keeps it from leaking into later tests.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    setenv(Name, Value, 1);
  }
  ~ScopedEnv() { unsetenv(Name); }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  const char *Name;
};

} // namespace capsule

#endif // CAPSULE_TEST_UNIT_TESTSUPPORT_H
