//===- Progress.cpp - Progress of long checkpointed gradients -------------===//
#include "Progress.h"
#include "Config.h"
#include "Support.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <strings.h>
#include <unistd.h>

namespace capsule {
namespace {

enum class ProgressMode : int { Off, Terminal, Always };

/// CAPSULE_PROGRESS, read once, at the first checkpointed gradient.
ProgressMode progressMode() {
  static std::atomic<int> Mode{-1};
  if (Mode.load() < 0) {
    const char *Value = setting("CAPSULE_PROGRESS");
    ProgressMode Read = ProgressMode::Off;
    if (Value && !strcasecmp(Value, "always")) {
      Read = ProgressMode::Always;
    } else if (Value) {
      std::optional<bool> On = parseSwitch(Value);
      if (!On)
        failSetting("CAPSULE_PROGRESS", Value,
                    "1, yes, true or on for a live line on a terminal, "
                    "always for lines wherever stderr goes, or 0, no, false "
                    "or off");
      Read = *On ? ProgressMode::Terminal : ProgressMode::Off;
    }
    Mode.store(static_cast<int>(Read));
  }
  return static_cast<ProgressMode>(Mode.load());
}

/// Seconds between two reports on stderr: often enough for a live line to
/// look alive, seldom enough that whole lines do not flood a log.
constexpr double LiveInterval = 0.25, LogInterval = 10;

pthread_mutex_t CallbackMutex = PTHREAD_MUTEX_INITIALIZER;
capsule_progress_fn CallbackFn;
void *CallbackUser;
double CallbackEvery;

/// "2 h 05 min", "3 min 07 s" or "12.3 s".
struct DurationText {
  char Text[32];
};
DurationText formatDuration(double Seconds) {
  DurationText D;
  auto Whole = static_cast<unsigned long long>(Seconds);
  if (Seconds >= 3600)
    std::snprintf(D.Text, sizeof D.Text, "%llu h %02llu min", Whole / 3600,
                  Whole / 60 % 60);
  else if (Seconds >= 60)
    std::snprintf(D.Text, sizeof D.Text, "%llu min %02llu s", Whole / 60,
                  Whole % 60);
  else
    std::snprintf(D.Text, sizeof D.Text, "%.1f s", Seconds);
  return D;
}

} // namespace

ProgressReport::ProgressReport(const char *Function) : Function(Function) {
  ProgressMode Mode = progressMode();
  {
    MutexLock Lock(CallbackMutex);
    Callback = CallbackFn;
    User = CallbackUser;
    CallbackInterval = CallbackEvery;
  }
  bool Terminal = Mode != ProgressMode::Off && isatty(STDERR_FILENO);
  Line = Mode == ProgressMode::Always || Terminal;
  Live = Line && Terminal;
  if (!reporting())
    return;
  Start = monotonicSeconds();
  report(/*StageChanged=*/true);
}

void ProgressReport::stepsCounted(uint64_t N) {
  if (!reporting())
    return;
  Steps = N;
  Stage = "reversing";
  ScheduleStart = monotonicSeconds();
  report(/*StageChanged=*/true);
}

void ProgressReport::counting(uint64_t SoFar) {
  if (!reporting())
    return;
  Steps = SoFar;
  report(/*StageChanged=*/false);
}

void ProgressReport::ranAgain(uint64_t N) {
  if (!reporting())
    return;
  Recomputed += N;
  report(/*StageChanged=*/false);
}

void ProgressReport::reversed(uint64_t N) {
  if (!reporting())
    return;
  Reversed += N;
  report(/*StageChanged=*/false);
}

void ProgressReport::finishing() {
  if (!reporting())
    return;
  Stage = "finishing";
  report(/*StageChanged=*/true);
}

void ProgressReport::finish() {
  if (!reporting())
    return;
  Stage = "done";
  report(/*StageChanged=*/true);
}

void ProgressReport::report(bool StageChanged) {
  double Now = monotonicSeconds();
  capsule_progress_t P = figures(Now);
  if (Line &&
      (StageChanged || Now - LastLine >= (Live ? LiveInterval : LogInterval))) {
    print(P);
    LastLine = Now;
  }
  if (Callback && (StageChanged || Now - LastCallback >= CallbackInterval)) {
    Callback(&P, User);
    LastCallback = Now;
  }
}

capsule_progress_t ProgressReport::figures(double Now) const {
  capsule_progress_t P{};
  P.function = Function;
  P.stage = Stage;
  P.steps = Steps;
  P.reversed_steps = Reversed;
  P.recomputed_steps = Recomputed;
  P.fraction = Steps ? static_cast<double>(Reversed) / Steps : 0;
  P.elapsed_seconds = Now - Start;
  // The reverse sweep so far, extrapolated: the schedule's stages cost
  // about alike per step reversed, recomputation included.
  P.remaining_seconds = -1;
  if (Reversed >= Steps && Steps)
    P.remaining_seconds = 0;
  else if (Reversed)
    P.remaining_seconds = (Now - ScheduleStart) *
                          static_cast<double>(Steps - Reversed) /
                          static_cast<double>(Reversed);
  return P;
}

void ProgressReport::print(const capsule_progress_t &P) const {
  // A live line is rewritten in place and ends when the gradient does.
  const char *Begin = Live ? "\r\033[K" : "";
  bool Last = !std::strcmp(P.stage, "done");
  const char *End = !Live || Last ? "\n" : "";
  auto N = static_cast<unsigned long long>(P.steps);
  double Again =
      P.steps ? static_cast<double>(P.recomputed_steps) / P.steps : 0;
  DurationText Elapsed = formatDuration(P.elapsed_seconds);
  if (!std::strcmp(P.stage, "counting")) {
    char SoFar[80] = "";
    if (P.steps)
      std::snprintf(SoFar, sizeof SoFar, ", %llu so far, %s elapsed", N,
                    Elapsed.Text);
    std::fprintf(stderr, "%scapsule: gradient of %s: counting steps%s%s", Begin,
                 P.function, SoFar, End);
  } else if (!std::strcmp(P.stage, "finishing")) {
    std::fprintf(stderr,
                 "%scapsule: gradient of %s: reversed; running it once more "
                 "to leave memory as it ends, %s elapsed%s",
                 Begin, P.function, Elapsed.Text, End);
  } else if (Last) {
    std::fprintf(stderr,
                 "%scapsule: gradient of %s: done in %s; %llu steps, %.2fx "
                 "of them run again%s",
                 Begin, P.function, Elapsed.Text, N, Again, End);
  } else {
    char Left[48] = "time left not yet known";
    if (P.remaining_seconds >= 0)
      std::snprintf(Left, sizeof Left, "about %s left",
                    formatDuration(P.remaining_seconds).Text);
    std::fprintf(stderr,
                 "%scapsule: gradient of %s: %s, %.1f%% of %llu steps "
                 "reversed, %.2fx run again, %s elapsed, %s%s",
                 Begin, P.function, P.stage, 100 * P.fraction, N, Again,
                 Elapsed.Text, Left, End);
  }
  std::fflush(stderr);
}

} // namespace capsule

extern "C" void capsule_set_progress_callback(capsule_progress_fn Fn,
                                              void *User, double Interval) {
  capsule::MutexLock Lock(capsule::CallbackMutex);
  capsule::CallbackFn = Fn;
  capsule::CallbackUser = User;
  capsule::CallbackEvery = Interval > 0 ? Interval : 0;
}
