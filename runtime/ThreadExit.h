//===- ThreadExit.h - Per-thread runtime state freed at thread exit -------===//
//
// The runtime keeps its per-thread state (tape, journal, frame stacks,
// replay log, ...) in __thread variables of plain data, which need no C++
// runtime; what that state owns is freed by a pthread key destructor when
// the thread exits. Each kind of state registers its destructor once per
// thread (callers keep a flag so that registering stays off hot paths).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_THREADEXIT_H
#define CAPSULE_RUNTIME_THREADEXIT_H

#include <pthread.h>

namespace capsule {

/// Runs Destroy(Value) when the calling thread exits. Value must not be
/// null (pthread runs no destructor for a null value); one key per Destroy.
template <void (*Destroy)(void *)> void runAtThreadExit(void *Value) {
  static pthread_once_t Once = PTHREAD_ONCE_INIT;
  static pthread_key_t Key;
  pthread_once(&Once, [] { pthread_key_create(&Key, Destroy); });
  pthread_setspecific(Key, Value);
}

} // namespace capsule

#endif
