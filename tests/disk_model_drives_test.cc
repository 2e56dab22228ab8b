// Today's drives in the disk model (issue 59): rotational position and NCQ ordering by it, the
// write cache, FLUSH and FUA, the SSD's dies, and the profiles before them left as they were.
// All on a virtual clock: the tests give the arrival times.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "harness/disk/disk_figures.h"
#include "harness/disk/disk_model.h"

namespace elevbench {
namespace {

DiskProfile DriveProfile(const char* name) {
  DiskProfile p;
  std::string err;
  EXPECT_TRUE(LookupDiskProfile(name, &p, &err)) << err;
  return p;
}

// The mean of seek(|x - y|) for x, y uniform over the stroke: the density of f = |x - y| is
// 2 (1 - f).
double MeanRandomSeekMs(const DiskModel& m) {
  constexpr int kSteps = 20000;
  const double cap = static_cast<double>(m.profile().capacity_bytes);
  double sum = 0;
  for (int i = 0; i < kSteps; ++i) {
    const double f = (i + 0.5) / kSteps;
    sum += 2 * (1 - f) * m.SeekMs(static_cast<uint64_t>(f * cap)) / kSteps;
  }
  return sum;
}

TEST(DiskModelDrivesTest, RotationIsTheWaitForTheSectorAfterTheSeek) {
  DiskProfile p = DriveProfile("hus728t8");
  DiskModel m(p);
  const uint64_t offset = 3'000'000'000ULL;
  int64_t seek_ns = 0;
  const int64_t at = 1'000'000;
  const int64_t pos = m.PositioningAtNs(offset, at, &seek_ns);
  EXPECT_EQ(seek_ns, std::llround(m.SeekMs(offset) * 1e6));
  const DiskService s =
      m.Serve(DiskIo(offset, 4096, false, at - std::llround(p.overhead_ms * 1e6)));
  EXPECT_EQ(s.seek_ns + s.rotation_ns, pos);
  EXPECT_GE(s.rotation_ns, 0);
  EXPECT_LT(s.rotation_ns, std::llround(60e9 / p.rpm));
  // Arriving a quarter revolution later, the sector is a quarter revolution nearer (mod one).
  const int64_t rev = std::llround(60e9 / p.rpm);
  const int64_t pos_later = DiskModel(p).PositioningAtNs(offset, at + rev / 4);
  const int64_t shift = ((pos - pos_later) % rev + rev) % rev;
  EXPECT_NEAR(static_cast<double>(shift), static_cast<double>(rev / 4), 2.0);
  // Without rotational_position: half a revolution, as before.
  p.rotational_position = false;
  const DiskModel avg(p);
  EXPECT_EQ(avg.PositioningAtNs(offset, at) - std::llround(avg.SeekMs(offset) * 1e6),
            std::llround(30000.0 / p.rpm * 1e6));
}

TEST(DiskModelDrivesTest, QueueDepthOneAveragesSeekPlusHalfARevolution) {
  const DiskProfile p = DriveProfile("hus728t8");
  const DiskModel m(p);
  double latency_ms = 0;
  (void)ModelRandomIops(p, 1, false, 4000, &latency_ms);
  const double expected =
      MeanRandomSeekMs(m) + 30000.0 / p.rpm + p.overhead_ms + 4096 / (p.read_mbps * 1e3);
  EXPECT_NEAR(latency_ms, expected, 0.03 * expected);
}

TEST(DiskModelDrivesTest, NcqByPositioningTimeGivesMoreThanTwiceTheIops) {
  const DiskProfile p = DriveProfile("hus728t8");
  const double qd1 = ModelRandomIops(p, 1, false, 3000);
  const double qd32 = ModelRandomIops(p, 32, false, 6000);
  EXPECT_GE(qd32, 2.0 * qd1) << qd1 << " " << qd32;
  // Counting rotation is what gives it: with half a revolution on average, far less.
  DiskProfile avg = p;
  avg.rotational_position = false;
  EXPECT_LT(ModelRandomIops(avg, 32, false, 6000), 0.85 * qd32);
  // A smaller reordering window, as a consumer drive has, gains less.
  DiskProfile narrow = p;
  narrow.reorder_window = 4;
  EXPECT_LT(ModelRandomIops(narrow, 32, false, 6000), 0.8 * qd32);
}

// Issue 59 measured sata-7200 at 1.02x the QD1 IOPS at QD32 through the block layer. The model
// alone does the same: its aging_ms (100) is below a command's normal wait at depth 32 (~32 x
// 12 ms), so the oldest is always past the limit and the queue is served first come, first
// served. sata-7200 is kept as it is (illustrative); a larger age limit lets it reorder.
TEST(DiskModelDrivesTest, AnAgeLimitBelowTheQueueWaitMakesNcqFirstComeFirstServed) {
  DiskProfile p = DriveProfile("sata-7200");
  ASSERT_EQ(p.aging_ms, 100);
  const double qd1 = ModelRandomIops(p, 1, false, 3000);
  EXPECT_NEAR(ModelRandomIops(p, 32, false, 6000) / qd1, 1.0, 0.03);
  p.aging_ms = 1000;
  EXPECT_GT(ModelRandomIops(p, 32, false, 6000) / qd1, 1.5);
}

TEST(DiskModelDrivesTest, AgingStillServesTheOldestFirst) {
  DiskProfile p = DriveProfile("hus728t8");
  p.aging_ms = 50;
  DiskModel m(p);
  (void)m.Serve(DiskIo(0, 4096, false, 0));
  const std::vector<DiskRequest> waiting = {
      DiskIo(7'000'000'000'000ULL, 4096, false, 0),  // Far and old.
      DiskIo(m.head(), 4096, false, 1'000'000),      // Sequential.
  };
  EXPECT_EQ(m.PickNext(waiting, 49'999'999), 1u);
  EXPECT_EQ(m.PickNext(waiting, 50'000'000), 0u);
}

TEST(DiskModelDrivesTest, NothingPassesAFlush) {
  const DiskModel m(DriveProfile("hus728t8"));
  const std::vector<DiskRequest> flush_first = {DiskFlush(0), DiskIo(0, 4096, false, 1)};
  EXPECT_EQ(m.PickNext(flush_first, 10), 0u);
  // Behind an older far request, a sequential one after the flush is not a candidate.
  const std::vector<DiskRequest> flush_between = {DiskIo(5'000'000'000'000ULL, 4096, false, 0),
                                                  DiskFlush(1), DiskIo(0, 4096, false, 2)};
  EXPECT_EQ(m.PickNext(flush_between, 10), 0u);
}

TEST(DiskModelDrivesTest, ACachedWriteCompletesAfterTheHostTransfer) {
  const DiskProfile p = DriveProfile("hus728t8");
  DiskModel m(p);
  const DiskService s = m.Serve(DiskIo(4'000'000'000'000ULL, 65536, true, 1000));
  EXPECT_EQ(s.seek_ns + s.rotation_ns + s.wait_ns, 0);
  EXPECT_TRUE(s.sequential);  // Paid no positioning: stats.json does not count it a seek.
  EXPECT_EQ(s.seek_distance, 0u);
  EXPECT_EQ(s.transfer_ns, std::llround(65536 * 1000.0 / p.link_mbps));
  EXPECT_EQ(s.service_ns, std::llround(p.overhead_ms * 1e6) + s.transfer_ns);
  EXPECT_EQ(m.dirty_bytes(), 65536u);
  // The actuator destages it while idle: a read long after finds the cache empty.
  const DiskService r = m.Serve(DiskIo(0, 4096, false, 1'000'000'000));
  EXPECT_EQ(m.dirty_bytes(), 0u);
  EXPECT_EQ(r.wait_ns, 0);
}

TEST(DiskModelDrivesTest, TheDriveDefersDestagingUntilTheHostLeavesItIdle) {
  DiskModel m(DriveProfile("hus728t8"));
  const DiskService w = m.Serve(DiskIo(6'000'000'000'000ULL, 4096, true, 0));
  const DiskService w2 = m.Serve(DiskIo(1'000'000'000'000ULL, 4096, true, w.end_ns));
  // A read right after the writes: nothing destaging yet, so it does not wait.
  const DiskService r = m.Serve(DiskIo(2'000'000'000'000ULL, 4096, false, w2.end_ns));
  EXPECT_EQ(r.wait_ns, 0);
  EXPECT_EQ(m.dirty_bytes(), 8192u);
  // Once the host has left it idle for kDestageIdleNs the drive destages; a read arriving just
  // after that waits for the destage under way.
  const int64_t idle_from = r.end_ns + DiskModel::kDestageIdleNs;
  const DiskService r2 = m.Serve(DiskIo(3'000'000'000'000ULL, 4096, false, idle_from + 1000));
  EXPECT_GT(r2.wait_ns, 1'000'000);
  EXPECT_LT(m.dirty_bytes(), 8192u);
}

TEST(DiskModelDrivesTest, AHalfFullCacheDestagesWithoutWaitingForIdle) {
  DiskProfile p = DriveProfile("hus728t8");
  p.write_cache_bytes = 8 * 4096;
  DiskModel m(p);
  int64_t now = 0;
  for (uint64_t i = 0; i < 5; ++i) {  // 5 of 8 blocks: over half full.
    now = m.Serve(DiskIo((i + 1) * 1'000'000'000'000ULL, 4096, true, now)).end_ns;
  }
  const DiskService r = m.Serve(DiskIo(0, 4096, false, now));
  EXPECT_GT(r.wait_ns, 0);  // A destage began before the host went idle.
}

TEST(DiskModelDrivesTest, AWriteContinuingWhereTheHeadStoppedWaitsForThePlatter) {
  const DiskProfile p = DriveProfile("st2000dm006");
  const int64_t rev = std::llround(60e9 / p.rpm);
  DiskModel m(p);
  const DiskService w = m.Serve(DiskIo(1 << 20, 4096, true, 0));
  const DiskService f = m.Serve(DiskFlush(w.end_ns));
  ASSERT_EQ(m.head(), (1u << 20) + 4096);
  const int64_t stopped = m.media_free_ns();
  // The next block, written and flushed a little later: the head is on its track but the
  // sector has gone by, so the flush waits for the rest of the revolution.
  const DiskService w2 = m.Serve(DiskIo(m.head(), 4096, true, f.end_ns));
  const DiskService f2 = m.Serve(DiskFlush(w2.end_ns));
  const int64_t past = (f2.start_ns - stopped) % rev;
  EXPECT_EQ(m.media_free_ns(), f2.start_ns + (rev - past) + std::llround(4096 * 1000.0 / 133.0));
  // Sequential 4 KiB write + fsync at QD1: about a revolution a cycle, as a real disk's
  // fsync-per-write rate (120 a second at 7200 rpm), not a transfer's thousands.
  EXPECT_NEAR(ModelWriteFsyncPerSec(p, 500), p.rpm / 60, 0.10 * p.rpm / 60);
  EXPECT_NEAR(ModelWriteFsyncPerSec(DriveProfile("hus728t8"), 500), 120, 12);
}

TEST(DiskModelDrivesTest, WritesIntoTheCacheAreTakenInArrivalOrder) {
  DiskModel m(DriveProfile("st2000dm006"));
  (void)m.Serve(DiskIo(0, 4096, false, 0));
  const std::vector<DiskRequest> waiting = {
      DiskIo(1'500'000'000'000ULL, 4096, true, 0),  // Far, but the cache takes it as it is.
      DiskIo(m.head(), 4096, true, 1),              // Sequential.
  };
  EXPECT_EQ(m.PickNext(waiting, 10'000'000), 0u);
  // A read still goes by its positioning: the sequential read before a far one.
  const std::vector<DiskRequest> reads = {DiskIo(1'500'000'000'000ULL, 4096, false, 0),
                                          DiskIo(m.head(), 4096, false, 1)};
  EXPECT_EQ(m.PickNext(reads, 10'000'000), 1u);
}

// A streaming writer's cached writes do not hold a read back: the drive reads between destages
// and takes the writes into its cache meanwhile (a read waited for its whole age limit, 1 s on
// hus728t8, behind writes that cost no positioning). 20 writes ahead: inside its reorder window
// of 24.
TEST(DiskModelDrivesTest, AReadGoesBeforeTheWritesTheCacheTakes) {
  DiskModel m(DriveProfile("hus728t8"));
  (void)m.Serve(DiskIo(0, 131072, true, 0));
  std::vector<DiskRequest> waiting;
  for (uint64_t i = 1; i <= 20; ++i) waiting.push_back(DiskIo(i * 131072, 131072, true, 0));
  waiting.push_back(DiskIo(4'000'000'000'000ULL, 4096, false, 1'000));
  EXPECT_EQ(m.PickNext(waiting, 2'000), 20u);
  // With no read waiting, the cache's writes go in arrival order.
  waiting.pop_back();
  EXPECT_EQ(m.PickNext(waiting, 2'000), 0u);
}

TEST(DiskModelDrivesTest, AFullCacheMakesWritesWaitForDestaging) {
  DiskProfile p = DriveProfile("hus728t8");
  p.write_cache_bytes = 4 * 4096;
  DiskModel m(p);
  int64_t now = 0;
  std::vector<int64_t> waits;
  for (uint64_t i = 0; i < 8; ++i) {
    const DiskService s =
        m.Serve(DiskIo((i * 977 % 8) * 900'000'000'000ULL + 8192, 4096, true, now));
    waits.push_back(s.wait_ns);
    now = s.end_ns;
  }
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(waits[i], 0) << i;
  for (size_t i = 5; i < 8; ++i) EXPECT_GT(waits[i], 1'000'000) << i;  // A destage each.
  EXPECT_LE(m.dirty_bytes(), p.write_cache_bytes);
}

TEST(DiskModelDrivesTest, AFlushDestagesTheCacheAndWhatArrivesMeanwhileWaits) {
  const DiskProfile p = DriveProfile("st2000dm006");
  DiskModel m(p);
  int64_t now = 0;
  for (uint64_t i = 0; i < 8; ++i) {
    now = m.Serve(DiskIo((i * 5 + 1) * 40'000'000'000ULL, 4096, true, now)).end_ns;
  }
  const DiskService flush = m.Serve(DiskFlush(now));
  EXPECT_EQ(m.dirty_bytes(), 0u);
  EXPECT_GT(flush.wait_ns, 8 * 5'000'000);  // Eight positionings at least.
  // A read that arrived during the flush starts after it.
  const DiskService read = m.Serve(DiskIo(0, 4096, false, now + 1000));
  EXPECT_EQ(read.start_ns, flush.end_ns);
  // A flush with nothing cached costs only the command.
  const DiskService empty = m.Serve(DiskFlush(read.end_ns + 1'000'000'000));
  EXPECT_EQ(empty.service_ns, std::llround(p.overhead_ms * 1e6));
}

TEST(DiskModelDrivesTest, AFuaWriteGoesToTheMedia) {
  DiskModel m(DriveProfile("hus728t8"));
  DiskRequest fua = DiskIo(5'000'000'000'000ULL, 4096, true, 0);
  fua.fua = true;
  const DiskService s = m.Serve(fua);
  EXPECT_GT(s.seek_ns, 0);
  EXPECT_EQ(m.dirty_bytes(), 0u);
  EXPECT_EQ(m.head(), 5'000'000'000'000ULL + 4096);
}

TEST(DiskModelDrivesTest, SsdReadsWaitForAProgramOnTheirDie) {
  const DiskProfile p = DriveProfile("870evo");
  DiskModel m(p);
  const DiskService w = m.Serve(DiskIo(0, 4096, true, 0));
  EXPECT_EQ(w.wait_ns, 0);  // Into the buffer.
  const DiskService same_die = m.Serve(DiskIo(4096, 4096, false, w.end_ns));
  EXPECT_GT(same_die.wait_ns, std::llround(p.page_program_us * 1e3 * 0.9));
  const DiskService other_die = m.Serve(DiskIo(16384, 4096, false, same_die.end_ns));
  EXPECT_EQ(other_die.wait_ns, std::llround(p.page_read_us * 1e3));
}

TEST(DiskModelDrivesTest, AnSsdFlushWaitsForTheBufferUnlessPowerLossProtected) {
  DiskProfile p = DriveProfile("870evo");
  DiskModel without(p);
  const int64_t w = without.Serve(DiskIo(0, 4096, true, 0)).end_ns;
  const DiskService flush = without.Serve(DiskFlush(w));
  EXPECT_GT(flush.service_ns, std::llround(p.page_program_us * 1e3 * 0.9));
  p.power_loss_protection = true;
  DiskModel with(p);
  const int64_t w2 = with.Serve(DiskIo(0, 4096, true, 0)).end_ns;
  EXPECT_EQ(with.Serve(DiskFlush(w2)).service_ns, std::llround(p.overhead_ms * 1e6));
}

TEST(DiskModelDrivesTest, TheProfilesBeforeTodaysDrivesAreUnchanged) {
  for (const char* name : {"ide-2003", "sata-7200", "ssd"}) {
    const DiskProfile p = DriveProfile(name);
    EXPECT_FALSE(p.rotational_position) << name;
    EXPECT_EQ(p.reorder_window, 0) << name;
    EXPECT_EQ(p.write_cache_bytes, 0u) << name;
    EXPECT_EQ(p.ssd_dies, 0) << name;
    const nlohmann::json j = DiskProfileToJson(p);
    for (const char* key : {"rotational_position", "reorder_window", "write_cache_bytes",
                            "link_mbps", "ssd_dies", "power_loss_protection"}) {
      EXPECT_FALSE(j.contains(key)) << name << " " << key;
    }
  }
  // A write goes to the media and a flush costs nothing on them, as before.
  DiskModel ide(DriveProfile("ide-2003"));
  const DiskService w = ide.Serve(DiskIo(1ULL << 30, 4096, true, 0));
  EXPECT_GT(w.seek_ns, 0);
  EXPECT_EQ(w.wait_ns, 0);
  const DiskService f = ide.Serve(DiskFlush(w.end_ns + 5));
  EXPECT_EQ(f.service_ns, 0);
  EXPECT_EQ(f.end_ns, w.end_ns + 5);
  EXPECT_EQ(ide.busy_until_ns(), w.end_ns);
}

TEST(DiskModelDrivesTest, NewParametersOverrideAndCheck) {
  DiskProfile p = DriveProfile("ide-2003");
  std::string err;
  for (const char* kv : {"rotational_position=1", "reorder_window=8", "write_cache_bytes=1048576",
                         "link_mbps=600"}) {
    ASSERT_TRUE(ApplyDiskOverride(kv, &p, &err)) << kv << ": " << err;
  }
  EXPECT_TRUE(p.rotational_position);
  EXPECT_EQ(p.reorder_window, 8);
  EXPECT_EQ(p.write_cache_bytes, 1048576u);
  EXPECT_EQ(p.link_mbps, 600.0);
  EXPECT_TRUE(ValidateDiskProfile(p, &err)) << err;
  const nlohmann::json j = DiskProfileToJson(p);
  EXPECT_EQ(j["write_cache_bytes"], 1048576u);
  EXPECT_EQ(j["rotational_position"], true);

  DiskProfile s = DriveProfile("ssd");
  for (const char* kv : {"ssd_dies=8", "page_read_us=50", "page_program_us=600",
                         "power_loss_protection=true", "link_mbps=550"}) {
    ASSERT_TRUE(ApplyDiskOverride(kv, &s, &err)) << kv << ": " << err;
  }
  EXPECT_EQ(s.ssd_dies, 8);
  EXPECT_EQ(s.page_read_us, 50.0);
  EXPECT_EQ(s.page_program_us, 600.0);
  EXPECT_TRUE(s.power_loss_protection);
  EXPECT_TRUE(ValidateDiskProfile(s, &err)) << err;
}

TEST(DiskModelDrivesTest, BadValuesAreRefusedInOneLine) {
  DiskProfile p = DriveProfile("hus728t8");
  for (const char* kv : {"rotational_position=2", "rotational_position=", "reorder_window=-1",
                         "reorder_window=257", "write_cache_bytes=-1", "write_cache_bytes=lots",
                         "link_mbps=-600", "link_mbps=fast", "ssd_dies=4097", "ssd_dies=1.5",
                         "page_read_us=-1", "page_program_us=nan", "power_loss_protection=maybe"}) {
    std::string err;
    EXPECT_FALSE(ApplyDiskOverride(kv, &p, &err)) << kv;
    EXPECT_FALSE(err.empty()) << kv;
    EXPECT_EQ(err.find('\n'), std::string::npos) << kv;
  }
  // Combinations that make no drive.
  for (std::vector<const char*> kvs :
       std::vector<std::vector<const char*>>{{"link_mbps=0"},  // A cache needs a link.
                                             {"rpm=0"},        // Rotation needs a spindle.
                                             {"ssd_dies=4"},   // Flash does not rotate.
                                             {"power_loss_protection=1"}}) {  // Only an SSD has it.
    DiskProfile q = DriveProfile("hus728t8");
    std::string err;
    for (const char* kv : kvs) ASSERT_TRUE(ApplyDiskOverride(kv, &q, &err)) << kv << err;
    EXPECT_FALSE(ValidateDiskProfile(q, &err)) << kvs[0];
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace elevbench
