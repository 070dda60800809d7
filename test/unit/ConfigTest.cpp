//===- ConfigTest.cpp - Parsing and formatting of runtime settings --------===//
#include "Config.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace capsule;

namespace {

constexpr uint64_t KiB = 1024, MiB = KiB << 10, GiB = MiB << 10,
                   TiB = GiB << 10;

struct ByteCountCase {
  const char *Text;
  uint64_t Bytes;
};

TEST(ParseByteCountTest, AcceptsCountsUnitsAndNoLimit) {
  const ByteCountCase Cases[] = {
      {"1048576", 1048576},
      {"1", 1},
      {"100B", 100},
      {"0", 0},
      {"0K", 0},
      {"none", 0},
      {"NONE", 0},
      {"unlimited", 0},
      {"Unlimited", 0},
      {"4K", 4 * KiB},
      {"4k", 4 * KiB},
      {"4KB", 4 * KiB},
      {"4kib", 4 * KiB},
      {"512M", 512 * MiB},
      {"512MiB", 512 * MiB},
      {"2G", 2 * GiB},
      {"2gb", 2 * GiB},
      {"1.5GiB", GiB + GiB / 2},
      {"1.5g", GiB + GiB / 2},
      {"0.5K", 512},
      {"1T", TiB},
      {"18446744073709551615", UINT64_MAX},
  };
  for (const ByteCountCase &Case : Cases) {
    std::optional<uint64_t> Bytes = parseByteCount(Case.Text);
    ASSERT_TRUE(Bytes.has_value()) << Case.Text;
    EXPECT_EQ(*Bytes, Case.Bytes) << Case.Text;
  }
}

TEST(ParseByteCountTest, RejectsMalformedCounts) {
  for (const char *Text :
       {"",      "abc", "-1",   "+1",    " 1",    "1 ",   "1.5",
        "1.",    ".5K", "K",    "iB",    "1iB",   "1KK",  "1Q",
        "1KiBB", "1e6", "0x10", "1,000", "12 MB", "none "})
    EXPECT_FALSE(parseByteCount(Text).has_value()) << "'" << Text << "'";
}

TEST(ParseByteCountTest, RejectsCountsPast64Bits) {
  for (const char *Text :
       {"18446744073709551616", "16777216T", "99999999999999999999999"})
    EXPECT_FALSE(parseByteCount(Text).has_value()) << Text;
}

TEST(ParseByteCountTest, RejectsNonZeroCountsBelowOneByte) {
  // "0.0001K" rounds down to 0, which would mean no limit at all.
  EXPECT_FALSE(parseByteCount("0.0001K").has_value());
}

TEST(ParseSwitchTest, AcceptsOnAndOffWordsInAnyCase) {
  for (const char *Text : {"1", "yes", "YES", "true", "True", "on", "ON"})
    EXPECT_EQ(parseSwitch(Text), std::optional<bool>(true)) << Text;
  for (const char *Text : {"0", "no", "No", "false", "FALSE", "off", "Off"})
    EXPECT_EQ(parseSwitch(Text), std::optional<bool>(false)) << Text;
}

TEST(ParseSwitchTest, RejectsEverythingElse) {
  for (const char *Text : {"", "2", "y", "n", "enable", "on ", "truee"})
    EXPECT_FALSE(parseSwitch(Text).has_value()) << "'" << Text << "'";
}

TEST(FormatBytesTest, PicksTheLargestUnitBelowTheCount) {
  EXPECT_STREQ(formatBytes(0, 2).Text, "0 B");
  EXPECT_STREQ(formatBytes(1023, 2).Text, "1023 B");
  EXPECT_STREQ(formatBytes(1024, 2).Text, "1.00 KiB");
  EXPECT_STREQ(formatBytes(1289748, 2).Text, "1.23 MiB");
  EXPECT_STREQ(formatBytes(64 * MiB, 1).Text, "64.0 MiB");
  EXPECT_STREQ(formatBytes(GiB + GiB / 2, 1).Text, "1.5 GiB");
  EXPECT_STREQ(formatBytes(3 * TiB, 1).Text, "3.0 TiB");
  EXPECT_STREQ(formatBytes(UINT64_MAX, 1).Text, "16.0 EiB");
}

} // namespace
