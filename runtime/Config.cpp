//===- Config.cpp - Runtime settings from the environment -----------------===//
#include "Config.h"
#include "Support.h"
#include "Tape.h"

#include "capsule/capsule.h"

#include <atomic>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace capsule {
namespace {

// The multiplier a size suffix names ("", "k", "MiB", "gb", ...), or 0.
uint64_t suffixMultiplier(const char *Suffix) {
  static const char Units[] = "kmgt";
  if (!*Suffix || !strcasecmp(Suffix, "b"))
    return 1;
  const char *Unit = std::strchr(Units, std::tolower(*Suffix));
  const char *Rest = Suffix + 1;
  if (!Unit || !(!*Rest || !strcasecmp(Rest, "b") || !strcasecmp(Rest, "ib")))
    return 0;
  return uint64_t(1) << (10 * (Unit - Units + 1));
}

bool isDigit(char C) { return C >= '0' && C <= '9'; }

// Where the tape limit in force came from, for the message that names it.
enum class LimitSource { Default, Environment, Api };

pthread_mutex_t LimitMutex = PTHREAD_MUTEX_INITIALIZER;
LimitSource LimitFrom = LimitSource::Default;

} // namespace

namespace detail {
std::atomic<bool> LimitKnown{false};
std::atomic<uint64_t> LimitBytes{0};
std::atomic<bool> CallSettingsRead{false};
std::atomic<bool> Timing{false};

void readLimitFromEnvironment() {
  MutexLock Lock(LimitMutex);
  if (LimitKnown.load())
    return;
  if (const char *Value = setting("CAPSULE_TAPE_LIMIT")) {
    std::optional<uint64_t> Bytes = parseByteCount(Value);
    if (!Bytes)
      failSetting("CAPSULE_TAPE_LIMIT", Value,
                  "a byte count such as 1048576, 512M, 2G or 'unlimited'");
    LimitBytes.store(*Bytes);
    LimitFrom = LimitSource::Environment;
  }
  LimitKnown.store(true, std::memory_order_release);
}
} // namespace detail

namespace {
using detail::LimitBytes;
using detail::LimitKnown;
using detail::Timing;

// capsule_set_timing(); timing is on when either this or CAPSULE_STATS is.
std::atomic<bool> TimingFromApi{false};
} // namespace

void failSetting(const char *Name, const char *Value, const char *Expected) {
  std::fprintf(stderr, "capsule: invalid %s value '%s': expected %s\n", Name,
               Value, Expected);
  std::exit(2);
}

const char *setting(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value && *Value ? Value : nullptr;
}

ByteText doubledSetting(uint64_t Bytes) {
  static const char Units[] = "KMGT";
  uint64_t Target = Bytes > UINT64_MAX / 2 ? UINT64_MAX : 2 * Bytes;
  int Unit = 0;
  while (Unit < 4 && (Target >> (10 * (Unit + 1))) != 0)
    ++Unit;
  uint64_t Size = uint64_t(1) << (10 * Unit);
  unsigned long long Count = Target / Size + (Target % Size != 0);
  ByteText Out;
  if (Unit == 0)
    std::snprintf(Out.Text, sizeof(Out.Text), "%llu", Count);
  else
    std::snprintf(Out.Text, sizeof(Out.Text), "%llu%c", Count, Units[Unit - 1]);
  return Out;
}

std::optional<uint64_t> parseByteCount(const char *Text) {
  if (!strcasecmp(Text, "none") || !strcasecmp(Text, "unlimited"))
    return 0;
  const char *P = Text;
  unsigned __int128 Whole = 0;
  // The bound keeps Whole in 128 bits; a longer number is rejected below.
  for (; isDigit(*P) && Whole <= UINT64_MAX; ++P)
    Whole = Whole * 10 + (*P - '0');
  if (P == Text)
    return std::nullopt;
  // The fraction as Numerator / Denominator; 18 digits keep it in 128 bits.
  unsigned __int128 Numerator = 0, Denominator = 1;
  if (*P == '.') {
    const char *Start = ++P;
    for (; isDigit(*P) && P - Start < 18; ++P) {
      Numerator = Numerator * 10 + (*P - '0');
      Denominator *= 10;
    }
    if (P == Start)
      return std::nullopt;
  }
  uint64_t Multiplier = suffixMultiplier(P);
  // A fraction of a byte means nothing.
  if (Multiplier == 0 || (Denominator > 1 && Multiplier == 1))
    return std::nullopt;
  unsigned __int128 Bytes =
      Whole * Multiplier + Numerator * Multiplier / Denominator;
  // So does a non-zero value that rounds down to nothing, such as "0.0001K":
  // it must not turn into "no limit".
  bool Zero = Whole == 0 && Numerator == 0;
  if (Bytes > UINT64_MAX || (Bytes == 0 && !Zero))
    return std::nullopt;
  return static_cast<uint64_t>(Bytes);
}

std::optional<bool> parseSwitch(const char *Text) {
  for (const char *On : {"1", "yes", "true", "on"})
    if (!strcasecmp(Text, On))
      return true;
  for (const char *Off : {"0", "no", "false", "off"})
    if (!strcasecmp(Text, Off))
      return false;
  return std::nullopt;
}

ByteText formatBytes(uint64_t Bytes, int Decimals) {
  static const char *const Units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  ByteText Out;
  if (Bytes < 1024) {
    std::snprintf(Out.Text, sizeof(Out.Text), "%llu B",
                  static_cast<unsigned long long>(Bytes));
    return Out;
  }
  double Value = static_cast<double>(Bytes) / 1024;
  int Unit = 0;
  for (; Value >= 1024 && Unit < 5; ++Unit)
    Value /= 1024;
  std::snprintf(Out.Text, sizeof(Out.Text), "%.*f %s", Decimals, Value,
                Units[Unit]);
  return Out;
}

bool statsEnabled() {
  // Reading the variable twice gives the same answer, so a race between two
  // threads' first calls is harmless.
  enum : int { Unknown, Off, On };
  static std::atomic<int> State{Unknown};
  if (State.load() == Unknown) {
    const char *Value = setting("CAPSULE_STATS");
    std::optional<bool> Enabled =
        Value ? parseSwitch(Value) : std::optional<bool>(false);
    if (!Enabled)
      failSetting("CAPSULE_STATS", Value,
                  "1, yes, true or on to print statistics, or 0, no, false "
                  "or off");
    State.store(*Enabled ? On : Off);
  }
  return State.load() == On;
}

void readCallSettings() {
  tapeLimit();
  Timing.store(TimingFromApi.load() || statsEnabled());
  detail::CallSettingsRead.store(true, std::memory_order_release);
}

void failTapeLimit(uint64_t Limit) {
  ByteText Size = formatBytes(Limit, 1);
  unsigned long long Bytes = Limit;
  bool FromApi;
  {
    MutexLock Lock(LimitMutex);
    FromApi = LimitFrom == LimitSource::Api;
  }
  if (FromApi)
    std::fprintf(stderr,
                 "capsule: the gradient's tape needs more than the limit of %s "
                 "(%llu bytes) set by capsule_set_tape_limit(); raise it, e.g. "
                 "capsule_set_tape_limit(%llu), or pass 0 for no limit\n",
                 Size.Text, Bytes, Limit > UINT64_MAX / 2 ? ~0ULL : 2 * Bytes);
  else
    std::fprintf(stderr,
                 "capsule: the gradient's tape needs more than the limit of %s "
                 "(%llu bytes) set by CAPSULE_TAPE_LIMIT; raise it, e.g. "
                 "CAPSULE_TAPE_LIMIT=%s, or call capsule_set_tape_limit()\n",
                 Size.Text, Bytes, doubledSetting(Limit).Text);
  std::exit(3);
}

} // namespace capsule

extern "C" void capsule_set_tape_limit(uint64_t Bytes) {
  capsule::MutexLock Lock(capsule::LimitMutex);
  capsule::LimitBytes.store(Bytes);
  capsule::LimitFrom = capsule::LimitSource::Api;
  capsule::LimitKnown.store(true, std::memory_order_release);
  capsule::tapeLimitChanged();
}

extern "C" uint64_t capsule_tape_limit(void) { return capsule::tapeLimit(); }

extern "C" void capsule_set_timing(int On) {
  capsule::TimingFromApi.store(On != 0);
  capsule::Timing.store(On != 0 || capsule::statsEnabled());
}

void capsule::failInternal(const char *Format, ...) {
  std::fprintf(stderr, "capsule: internal error: ");
  va_list Args;
  va_start(Args, Format);
  std::vfprintf(stderr, Format, Args);
  va_end(Args);
  std::fputc('\n', stderr);
  std::abort();
}
