#include "harness/disk/disk_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace elevbench {
namespace {

constexpr double kEps = 1e-9;

DiskProfile Profile(const char* name) {
  DiskProfile p;
  std::string err;
  EXPECT_TRUE(LookupDiskProfile(name, &p, &err)) << err;
  return p;
}

int64_t Ns(double ms) { return std::llround(ms * 1e6); }

TEST(DiskModelTest, SeekCurveMatchesFormulaAtKnownPoints) {
  const DiskProfile p = Profile("ide-2003");
  const DiskModel m(p);
  const double cap = static_cast<double>(p.capacity_bytes);
  EXPECT_EQ(m.SeekMs(0), 0.0);
  EXPECT_NEAR(m.SeekMs(1), p.track_to_track_ms, 0.01);
  // f = 1/12: sqrt((1/12) / (1/3)) = 1/2 of the way from track-to-track to avg.
  EXPECT_NEAR(m.SeekMs(static_cast<uint64_t>(cap / 12)),
              p.track_to_track_ms + 0.5 * (p.avg_seek_ms - p.track_to_track_ms), 1e-6);
  EXPECT_NEAR(m.SeekMs(static_cast<uint64_t>(cap / 3)), p.avg_seek_ms, 1e-6);
  // Linear between 1/3 and full stroke: 2/3 is half-way.
  EXPECT_NEAR(m.SeekMs(static_cast<uint64_t>(cap * 2 / 3)),
              0.5 * (p.avg_seek_ms + p.full_stroke_ms), 1e-6);
  EXPECT_NEAR(m.SeekMs(p.capacity_bytes), p.full_stroke_ms, kEps);
  EXPECT_NEAR(m.SeekMs(p.capacity_bytes * 4), p.full_stroke_ms, kEps);  // Clamped.
}

TEST(DiskModelTest, SeekCurveIsMonotonic) {
  for (const std::string& name : DiskProfileNames()) {
    const DiskProfile p = Profile(name.c_str());
    const DiskModel m(p);
    double previous = 0;
    for (int i = 1; i <= 2000; ++i) {
      const uint64_t d = p.capacity_bytes / 2000 * static_cast<uint64_t>(i);
      const double s = m.SeekMs(d);
      EXPECT_GE(s, previous) << name << " distance " << d;
      previous = s;
    }
  }
}

TEST(DiskModelTest, RotationalLatencyIsHalfARevolution) {
  EXPECT_NEAR(DiskModel(Profile("ide-2003")).AvgRotationMs(), 60000.0 / 7200 / 2, kEps);
  EXPECT_EQ(DiskModel(Profile("ssd")).AvgRotationMs(), 0.0);
}

TEST(DiskModelTest, RandomRequestPaysSeekRotationTransferAndOverhead) {
  const DiskProfile p = Profile("ide-2003");
  DiskModel m(p);
  const uint64_t offset = 1ULL << 30;
  const DiskService s = m.Serve(DiskIo(offset, 4096, false, 1'000'000));
  EXPECT_FALSE(s.sequential);
  EXPECT_EQ(s.seek_distance, offset);
  EXPECT_EQ(s.start_ns, 1'000'000);
  EXPECT_EQ(s.seek_ns, Ns(m.SeekMs(offset)));
  EXPECT_EQ(s.rotation_ns, Ns(30000.0 / p.rpm));
  EXPECT_EQ(s.transfer_ns, std::llround(4096 * 1000.0 / p.read_mbps));
  EXPECT_EQ(s.overhead_ns, Ns(p.overhead_ms));
  EXPECT_EQ(s.service_ns, s.overhead_ns + s.seek_ns + s.rotation_ns + s.transfer_ns);
  EXPECT_EQ(s.end_ns, s.start_ns + s.service_ns);
  EXPECT_EQ(m.head(), offset + 4096);
  EXPECT_EQ(m.busy_until_ns(), s.end_ns);
  EXPECT_EQ(m.PositioningNs(DiskIo(offset + 4096, 4096, false, 0)), 0);
}

TEST(DiskModelTest, SequentialRequestPaysNoSeek) {
  const DiskProfile p = Profile("ide-2003");
  DiskModel m(p);
  const DiskService first = m.Serve(DiskIo(8192, 131072, false, 0));
  // Arrives while the disk is still busy: no idle gap, so no stream cache.
  const DiskService second = m.Serve(DiskIo(8192 + 131072, 131072, false, first.end_ns - 10));
  EXPECT_TRUE(second.sequential);
  EXPECT_EQ(second.seek_distance, 0u);
  EXPECT_EQ(second.seek_ns, 0);
  EXPECT_EQ(second.rotation_ns, 0);
  EXPECT_EQ(second.cached_bytes, 0u);
  EXPECT_EQ(second.start_ns, first.end_ns);  // Waited for the first.
  EXPECT_EQ(second.transfer_ns, std::llround(131072 * 1000.0 / p.read_mbps));
  EXPECT_EQ(second.service_ns, Ns(p.overhead_ms) + second.transfer_ns);
}

TEST(DiskModelTest, WriteUsesWriteRate) {
  const DiskProfile p = Profile("ide-2003");
  DiskModel m(p);
  const DiskService s = m.Serve(DiskIo(0, 1'000'000, true, 0));
  EXPECT_EQ(s.transfer_ns, std::llround(1e9 / p.write_mbps));
}

TEST(DiskModelTest, StreamCacheCreditsIdleTimeOfSameDirectionStream) {
  DiskProfile p = Profile("ide-2003");
  p.stream_cache_bytes = 65536;
  DiskModel m(p);
  const DiskService a = m.Serve(DiskIo(0, 131072, false, 0));
  // First request ever: nothing cached even though the disk was idle.
  EXPECT_EQ(a.cached_bytes, 0u);
  // 500 us idle at 52 MB/s = 26000 bytes streamed ahead.
  const DiskService b = m.Serve(DiskIo(131072, 131072, false, a.end_ns + 500'000));
  EXPECT_EQ(b.cached_bytes, static_cast<uint64_t>(0.0005 * p.read_mbps * 1e6));
  EXPECT_EQ(b.transfer_ns, std::llround((131072.0 - b.cached_bytes) * 1000 / p.read_mbps));
  // A long idle gap is capped by stream_cache_bytes.
  const DiskService c = m.Serve(DiskIo(262144, 131072, false, b.end_ns + 1'000'000'000));
  EXPECT_EQ(c.cached_bytes, 65536u);
  // Direction change: a write after reads gets nothing.
  const DiskService d = m.Serve(DiskIo(393216, 131072, true, c.end_ns + 1'000'000));
  EXPECT_EQ(d.cached_bytes, 0u);
  // A non-sequential request gets nothing.
  const DiskService e = m.Serve(DiskIo(1ULL << 30, 4096, true, d.end_ns + 1'000'000));
  EXPECT_EQ(e.cached_bytes, 0u);
}

TEST(DiskModelTest, SsdHasNoPositioningCost) {
  DiskModel m(Profile("ssd"));
  (void)m.Serve(DiskIo(0, 4096, false, 0));
  const DiskService s = m.Serve(DiskIo(100'000'000'000ULL, 4096, false, 0));
  EXPECT_FALSE(s.sequential);
  EXPECT_EQ(s.seek_ns + s.rotation_ns, 0);
}

TEST(DiskModelTest, NcqPicksShortestPositioningAmongQueueDepth) {
  DiskProfile p = Profile("sata-7200");
  p.queue_depth = 3;
  p.aging_ms = 100;
  DiskModel m(p);
  (void)m.Serve(DiskIo(0, 4096, false, 0));  // Head now at 4096.
  const std::vector<DiskRequest> waiting = {
      DiskIo(40'000'000'000ULL, 4096, false, 10),  // Far.
      DiskIo(1'000'000'000ULL, 4096, false, 20),   // Middle.
      DiskIo(50'000'000ULL, 4096, false, 30),      // Nearest candidate.
      DiskIo(4096, 4096, false, 40),               // Sequential, but 4th: held by host.
  };
  EXPECT_EQ(m.PickNext(waiting, 1'000'000), 2u);
  p.queue_depth = 4;
  DiskModel deeper(p);
  (void)deeper.Serve(DiskIo(0, 4096, false, 0));
  EXPECT_EQ(deeper.PickNext(waiting, 1'000'000), 3u);  // Now a candidate.
}

TEST(DiskModelTest, NcqAgingServesTheOldestFirst) {
  DiskProfile p = Profile("sata-7200");
  p.queue_depth = 8;
  p.aging_ms = 50;
  const DiskModel m(p);
  const std::vector<DiskRequest> waiting = {
      DiskIo(200'000'000'000ULL, 4096, false, 0),  // Far and old.
      DiskIo(4096, 4096, false, 1'000'000),        // Near.
  };
  EXPECT_EQ(m.PickNext(waiting, 49'999'999), 1u);
  EXPECT_EQ(m.PickNext(waiting, 50'000'000), 0u);
}

TEST(DiskModelTest, NcqTiesGoToTheOldestAndDepthOneIsFifo) {
  DiskProfile p = Profile("sata-7200");
  const DiskModel m(p);
  const std::vector<DiskRequest> tie = {DiskIo(1'000'000, 4096, false, 0),
                                        DiskIo(1'000'000, 8192, false, 1)};
  EXPECT_EQ(m.PickNext(tie, 2), 0u);
  const DiskModel fifo(Profile("ide-2003"));
  const std::vector<DiskRequest> waiting = {DiskIo(9'000'000'000ULL, 4096, false, 0),
                                            DiskIo(0, 4096, false, 1)};
  EXPECT_EQ(fifo.PickNext(waiting, 2), 0u);
}

TEST(DiskProfileTest, LookupKnowsEveryListedName) {
  const std::vector<std::string> names = DiskProfileNames();
  ASSERT_EQ(names, (std::vector<std::string>{"ide-2003", "sata-7200", "ssd", "hus728t8",
                                             "st2000dm006", "870evo", "pm883"}));
  for (const std::string& name : names) {
    DiskProfile p;
    std::string err;
    ASSERT_TRUE(LookupDiskProfile(name, &p, &err)) << err;
    EXPECT_EQ(p.name, name);
    EXPECT_TRUE(ValidateDiskProfile(p, &err)) << err;
  }
  EXPECT_EQ(Profile("ide-2003").queue_depth, 1);
  EXPECT_EQ(Profile("sata-7200").queue_depth, 32);
  // Driver tags: the kernel's minimum for the IDE disk, NCQ's 32 for the SATA ones.
  EXPECT_EQ(Profile("ide-2003").driver_tags, 4);
  EXPECT_EQ(Profile("sata-7200").driver_tags, 32);
  EXPECT_EQ(Profile("ssd").driver_tags, 32);
  EXPECT_EQ(Profile("ssd").avg_seek_ms, 0.0);
}

TEST(DiskProfileTest, LookupUnknownNameListsKnownOnes) {
  DiskProfile p;
  std::string err;
  EXPECT_FALSE(LookupDiskProfile("floppy", &p, &err));
  EXPECT_NE(err.find("floppy"), std::string::npos);
  EXPECT_NE(err.find("ide-2003"), std::string::npos);
}

TEST(DiskProfileTest, OverridesSetEveryField) {
  DiskProfile p = Profile("ide-2003");
  std::string err;
  for (const char* kv :
       {"name=custom", "capacity_bytes=80000000000", "track_to_track_ms=0.5", "avg_seek_ms=8",
        "full_stroke_ms=15.5", "rpm=10000", "read_mbps=70", "write_mbps=60", "overhead_ms=0.2",
        "queue_depth=16", "driver_tags=8", "aging_ms=250", "stream_cache_bytes=0"}) {
    ASSERT_TRUE(ApplyDiskOverride(kv, &p, &err)) << kv << ": " << err;
  }
  EXPECT_EQ(p.name, "custom");
  EXPECT_EQ(p.capacity_bytes, 80'000'000'000ULL);
  EXPECT_EQ(p.track_to_track_ms, 0.5);
  EXPECT_EQ(p.avg_seek_ms, 8.0);
  EXPECT_EQ(p.full_stroke_ms, 15.5);
  EXPECT_EQ(p.rpm, 10000.0);
  EXPECT_EQ(p.read_mbps, 70.0);
  EXPECT_EQ(p.write_mbps, 60.0);
  EXPECT_EQ(p.overhead_ms, 0.2);
  EXPECT_EQ(p.queue_depth, 16);
  EXPECT_EQ(p.driver_tags, 8);
  EXPECT_EQ(p.aging_ms, 250.0);
  EXPECT_EQ(p.stream_cache_bytes, 0u);
  EXPECT_TRUE(ValidateDiskProfile(p, &err)) << err;
  const nlohmann::json j = DiskProfileToJson(p);
  EXPECT_EQ(j["name"], "custom");
  EXPECT_EQ(j["queue_depth"], 16);
  EXPECT_EQ(j["driver_tags"], 8);
  ASSERT_TRUE(ApplyDiskOverride("driver_tags=0", &p, &err)) << err;  // leave loop's own
  EXPECT_TRUE(ValidateDiskProfile(p, &err)) << err;
  EXPECT_DOUBLE_EQ(j["avg_rotation_ms"].get<double>(), 3.0);
}

TEST(DiskProfileTest, OverrideErrors) {
  DiskProfile p = Profile("ide-2003");
  const DiskProfile before = p;
  for (const char* kv :
       {"seek=3", "avg_seek_ms", "=3", "avg_seek_ms=fast", "avg_seek_ms=9ms", "avg_seek_ms=-1",
        "avg_seek_ms=", "read_mbps=0", "queue_depth=0", "queue_depth=257", "queue_depth=2.5",
        "capacity_bytes=0", "capacity_bytes=-5", "rpm=nan", "name=", "driver_tags=1",
        "driver_tags=3", "driver_tags=4097", "driver_tags=-4"}) {
    std::string err;
    EXPECT_FALSE(ApplyDiskOverride(kv, &p, &err)) << kv;
    EXPECT_FALSE(err.empty()) << kv;
    EXPECT_EQ(err.find('\n'), std::string::npos) << kv;
  }
  EXPECT_EQ(p.avg_seek_ms, before.avg_seek_ms);
  EXPECT_EQ(p.queue_depth, before.queue_depth);
  EXPECT_EQ(p.driver_tags, before.driver_tags);
  std::string err;
  EXPECT_FALSE(ApplyDiskOverride("bogus=1", &p, &err));
  EXPECT_NE(err.find("unknown disk parameter 'bogus'"), std::string::npos) << err;
}

TEST(DiskProfileTest, ValidateRejectsInconsistentSeekTimes) {
  DiskProfile p = Profile("ide-2003");
  std::string err;
  ASSERT_TRUE(ApplyDiskOverride("avg_seek_ms=25", &p, &err)) << err;  // > full stroke.
  EXPECT_FALSE(ValidateDiskProfile(p, &err));
  EXPECT_NE(err.find("avg_seek_ms"), std::string::npos);
  ASSERT_TRUE(ApplyDiskOverride("full_stroke_ms=30", &p, &err)) << err;
  EXPECT_TRUE(ValidateDiskProfile(p, &err)) << err;
}

// Found by fuzz/disk_override_fuzz: this profile validated, and serving a request then
// overflowed int64_t nanoseconds (undefined behaviour). Times, rates and rpm are now bounded.
TEST(DiskModelTest, OverridesThatWouldOverflowTheModelAreRefused) {
  std::string err;
  for (const char* bad :
       {"overhead_ms=000000000000000000004372384734294", "aging_ms=60001", "read_mbps=1e-300",
        "write_mbps=nan", "rpm=1e-300", "full_stroke_ms=inf"}) {
    DiskProfile p;
    ASSERT_TRUE(LookupDiskProfile("ide-2003", &p, &err)) << err;
    if (!ApplyDiskOverride(bad, &p, &err)) continue;  // refused at the syntax check: fine too
    EXPECT_FALSE(ValidateDiskProfile(p, &err)) << bad;
  }
  DiskProfile p;
  ASSERT_TRUE(LookupDiskProfile("ide-2003", &p, &err)) << err;
  ASSERT_TRUE(ApplyDiskOverride("overhead_ms=60000", &p, &err)) << err;
  ASSERT_TRUE(ApplyDiskOverride("full_stroke_ms=60000", &p, &err)) << err;
  EXPECT_TRUE(ValidateDiskProfile(p, &err)) << err;
}

// Found by fuzz/disk_override_fuzz: "name=" took any bytes, and a name that is not UTF-8 made
// DiskProfileToJson(...).dump() (stats.json, the results context) throw.
TEST(DiskModelTest, ProfileNameMustBePlainText) {
  DiskProfile p;
  std::string err;
  ASSERT_TRUE(LookupDiskProfile("ssd", &p, &err)) << err;
  EXPECT_FALSE(ApplyDiskOverride("name=1\x83\x83\x83", &p, &err));
  EXPECT_FALSE(ApplyDiskOverride("name=a b", &p, &err));
  EXPECT_EQ(p.name, "ssd");
  ASSERT_TRUE(ApplyDiskOverride("name=my-disk_2.5", &p, &err)) << err;
  EXPECT_NO_THROW((void)DiskProfileToJson(p).dump());
}

}  // namespace
}  // namespace elevbench
