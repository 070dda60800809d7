//===- Config.h - Runtime settings from the environment -------------------===//
//
// CAPSULE_TAPE_LIMIT and CAPSULE_STATS, the capsule_set_tape_limit() override,
// and the messages that stop the program when a setting is invalid or the
// tape limit is reached. The helpers that read and reject a setting serve the
// other settings too (CAPSULE_FRAME_STACK in FrameStack.cpp).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_CONFIG_H
#define CAPSULE_RUNTIME_CONFIG_H

#include <atomic>
#include <cstdint>
#include <optional>

namespace capsule {

/// Parses a tape limit: a byte count such as "1048576", optionally with a
/// K/M/G/T suffix (powers of 1024, optionally followed by "iB" or "B", any
/// case, and a fraction such as "1.5GiB"), or "0"/"none"/"unlimited" (all
/// mean no limit and give 0). Returns nothing if Text is not one of these.
std::optional<uint64_t> parseByteCount(const char *Text);

/// Parses an on/off switch: 1/yes/true/on or 0/no/false/off, any case.
std::optional<bool> parseSwitch(const char *Text);

/// A byte count formatted for people, e.g. "64.0 MiB" with one decimal or
/// "512 B" below a KiB.
struct ByteText {
  char Text[32];
};
ByteText formatBytes(uint64_t Bytes, int Decimals);

/// A byte-count setting of about twice Bytes, in whole units ("128M"), to
/// suggest in a message.
ByteText doubledSetting(uint64_t Bytes);

/// The value of environment variable Name, or null when unset or empty
/// (`NAME= ./prog` is the shell's way to switch a setting off).
const char *setting(const char *Name);

/// Stops the program (exit status 2) because environment variable Name holds
/// Value, which is not one of the Expected values.
[[noreturn]] void failSetting(const char *Name, const char *Value,
                              const char *Expected);

/// The state behind the inline readers below, which gradient calls use.
namespace detail {
extern std::atomic<bool> LimitKnown;
extern std::atomic<uint64_t> LimitBytes;
void readLimitFromEnvironment();
extern std::atomic<bool> CallSettingsRead;
extern std::atomic<bool> Timing;
} // namespace detail

/// The tape limit in force, in bytes (0: none). Reads CAPSULE_TAPE_LIMIT the
/// first time unless capsule_set_tape_limit() came first.
inline uint64_t tapeLimit() {
  if (__builtin_expect(!detail::LimitKnown.load(std::memory_order_acquire), 0))
    detail::readLimitFromEnvironment();
  return detail::LimitBytes.load(std::memory_order_relaxed);
}

/// Whether CAPSULE_STATS asks for a line per gradient call. Read once.
bool statsEnabled();

/// Reads the settings every gradient call depends on (CAPSULE_TAPE_LIMIT,
/// CAPSULE_STATS) the first time, so that a bad value stops the program
/// before any work; after that, one load of a flag.
void readCallSettings();
inline void checkCallSettings() {
  if (__builtin_expect(
          !detail::CallSettingsRead.load(std::memory_order_acquire), 0))
    readCallSettings();
}

/// Whether gradient calls are timed (capsule_stats_t's seconds): when
/// CAPSULE_STATS is on or the program called capsule_set_timing(1). Off, a
/// call reads no clock: tiny gradients called 10^5 times would spend more
/// on the clock than on the derivative.
inline bool timingOn() {
  return detail::Timing.load(std::memory_order_relaxed);
}

/// Stops the program on an impossible state (a bug in the pass or the
/// runtime): prints "capsule: internal error: " and the message, aborts.
[[noreturn]] __attribute__((format(printf, 1, 2))) void
failInternal(const char *Format, ...);

/// Stops the program because a push would take the tape past Limit.
[[noreturn]] void failTapeLimit(uint64_t Limit);

} // namespace capsule

#endif // CAPSULE_RUNTIME_CONFIG_H
