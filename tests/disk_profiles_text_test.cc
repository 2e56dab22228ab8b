// `elevbench disk profiles`: a table with a unit in every cell, one row per profile, in the
// profile table's order (tests/golden/disk_profiles.txt).

#include "reporters/disk_profiles_text.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

namespace elevbench {
namespace {

TEST(DiskProfilesTextTest, EveryProfileIsARowWithUnits) {
  std::vector<DiskProfile> profiles;
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    ASSERT_TRUE(LookupDiskProfile(name, &p, &err)) << err;
    profiles.push_back(p);
  }
  const std::string text = RenderDiskProfilesTable(profiles);
  EXPECT_EQ(text.rfind("Profile  ", 0), 0u);
  EXPECT_NE(text.find("\nide-2003  "), std::string::npos);
  EXPECT_NE(text.find("40 GB"), std::string::npos);  // ide-2003: a 40 GB Maxtor
  EXPECT_NE(text.find("52 MB/s"), std::string::npos);
  // The header, a row per profile, then (issue 59) a blank line and the second table's header
  // and rows, and the line that says the units are decimal (issue 45).
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')),
            2 * profiles.size() + 4);
  EXPECT_NE(text.find("\nst2000dm006  yes "), std::string::npos) << text;
  EXPECT_NE(text.find("3 MiB"), std::string::npos) << text;    // its write cache
  EXPECT_NE(text.find("3400 us"), std::string::npos) << text;  // 870evo's page program
  EXPECT_NE(text.find("rates in MB/s (10^6 bytes a second)"), std::string::npos);
  testing::ExpectMatchesGolden("disk_profiles.txt", text);
}

TEST(DiskProfilesTextTest, ZeroThatMeansNoneIsADash) {
  DiskProfile ssd;
  ssd.name = "flat";
  ssd.capacity_bytes = 2'000'000'000;
  ssd.read_mbps = 100;
  ssd.write_mbps = 90;
  const std::string text = RenderDiskProfilesTable({ssd});
  // No rpm (solid state), no aging, no driver tags, no stream cache: "-", not "0".
  EXPECT_NE(text.find("\nflat     2 GB      -    0.00 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("1            -      -            -\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace elevbench
