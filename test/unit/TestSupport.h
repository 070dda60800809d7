//===- TestSupport.h - Helpers shared by the runtime's unit tests ---------===//
#ifndef CAPSULE_TEST_UNIT_TESTSUPPORT_H
#define CAPSULE_TEST_UNIT_TESTSUPPORT_H

#include <cstdlib>

namespace capsule {

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
