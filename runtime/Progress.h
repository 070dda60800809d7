//===- Progress.h - Progress of long checkpointed gradients -----*- C++ -*-===//
//
// A checkpointed gradient of a long run can take hours. With
// CAPSULE_PROGRESS on, its driver keeps a live line on stderr (a terminal)
// saying what it is doing, how much of the reverse sweep is done, how much
// it ran again so far and about how long is left; a program can take the
// same figures through a callback (capsule_set_progress_callback). Quiet by
// default, and on a stderr that is not a terminal unless
// CAPSULE_PROGRESS=always, which prints whole lines instead.
//
// When nothing reports, every method returns after one test: no clock is
// read.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_PROGRESS_H
#define CAPSULE_RUNTIME_PROGRESS_H

#include "capsule/capsule.h"

#include <cstdint>

namespace capsule {

/// One checkpointed gradient call's progress, reported as its driver goes.
class ProgressReport {
public:
  /// Starts the report of the gradient of \p Function, counting its steps.
  explicit ProgressReport(const char *Function);
  ProgressReport(const ProgressReport &) = delete;
  ProgressReport &operator=(const ProgressReport &) = delete;

  /// Whether anything reports (a line or a callback).
  bool reporting() const { return Line || Callback; }
  /// The counting run (PRIMOPS, or the online schedule's first run) has
  /// counted \p SoFar steps so far.
  void counting(uint64_t SoFar);
  /// The steps are counted (\p Steps of them): the schedule begins.
  void stepsCounted(uint64_t Steps);
  /// A green run ran \p Steps steps again.
  void ranAgain(uint64_t Steps);
  /// A stage of \p Steps steps was reversed.
  void reversed(uint64_t Steps);
  /// The reverse sweep is done; memory is brought to where the run ends.
  void finishing();
  /// The gradient is done.
  void finish();

private:
  /// Reports now if \p StageChanged, else if the interval since the last
  /// report has passed.
  void report(bool StageChanged);
  capsule_progress_t figures(double Now) const;
  void print(const capsule_progress_t &P) const;

  bool Line = false; ///< writes to stderr
  bool Live = false; ///< rewrites one line (stderr is a terminal)
  capsule_progress_fn Callback = nullptr;
  void *User = nullptr;
  double CallbackInterval = 0;
  const char *Function;
  const char *Stage = "counting";
  uint64_t Steps = 0, Reversed = 0, Recomputed = 0;
  double Start = 0, ScheduleStart = 0, LastLine = 0, LastCallback = 0;
};

} // namespace capsule

#endif // CAPSULE_RUNTIME_PROGRESS_H
