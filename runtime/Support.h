//===- Support.h - Small helpers shared by the runtime's files ------------===//
//
// The runtime is linked into C programs by the plain C driver, so it must
// need nothing beyond libc and libm: no libstdc++ (no std::mutex, no
// std::string, no thread-safe statics, no exceptions). These helpers stand in
// for the few library pieces it would otherwise use.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_SUPPORT_H
#define CAPSULE_RUNTIME_SUPPORT_H

#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

namespace capsule {

/// Holds a pthread mutex for the lifetime of the object.
class MutexLock {
public:
  explicit MutexLock(pthread_mutex_t &M) : M(M) { pthread_mutex_lock(&M); }
  ~MutexLock() { pthread_mutex_unlock(&M); }
  MutexLock(const MutexLock &) = delete;
  MutexLock &operator=(const MutexLock &) = delete;

private:
  pthread_mutex_t &M;
};

/// Seconds on a clock that only moves forward.
inline double monotonicSeconds() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<double>(T.tv_sec) + static_cast<double>(T.tv_nsec) * 1e-9;
}

/// Writes \p Text to stderr with write(2): safe in a signal handler.
inline void writeToStderr(const char *Text) {
  for (size_t Left = strlen(Text); Left;) {
    ssize_t Done = write(STDERR_FILENO, Text, Left);
    if (Done <= 0)
      return;
    Text += Done;
    Left -= static_cast<size_t>(Done);
  }
}

} // namespace capsule

#endif // CAPSULE_RUNTIME_SUPPORT_H
