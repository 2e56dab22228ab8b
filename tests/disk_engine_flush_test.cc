// The emulated disk's flush path (harness/disk/disk_engine.h): the image's fsync reaches the
// model as a SATA FLUSH when the profile has a write cache or dies, and costs nothing as before
// otherwise. Driven directly on a temporary backing file: no FUSE, no root.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "harness/disk/disk_counters.h"
#include "harness/disk/disk_engine.h"
#include "harness/disk/emulated_stack.h"

namespace elevbench {
namespace {

DiskProfile FlushProfile(const char* name, std::initializer_list<const char*> overrides) {
  DiskProfile p;
  std::string err;
  EXPECT_TRUE(LookupDiskProfile(name, &p, &err)) << err;
  for (const char* o : overrides) EXPECT_TRUE(ApplyDiskOverride(o, &p, &err)) << o << ": " << err;
  EXPECT_TRUE(ValidateDiskProfile(p, &err)) << err;
  return p;
}

// A 1 MiB scratch backing file, removed when the test ends.
class BackingFile {
 public:
  BackingFile() {
    char path[] = "/tmp/elevbench-flush-XXXXXX";
    fd_ = mkstemp(path);
    if (fd_ >= 0) {
      unlink(path);
      if (ftruncate(fd_, 1 << 20) != 0) fd_ = -1;
    }
  }
  ~BackingFile() {
    if (fd_ >= 0) close(fd_);
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

TEST(DiskEngineFlushTest, OnlyProfilesWithACacheOrDiesSendFlushesToTheModel) {
  EXPECT_FALSE(DiskEngine::FlushReachesModel(FlushProfile("ide-2003", {})));
  EXPECT_FALSE(DiskEngine::FlushReachesModel(FlushProfile("sata-7200", {})));
  EXPECT_FALSE(DiskEngine::FlushReachesModel(FlushProfile("ssd", {})));
  for (const char* name : {"hus728t8", "st2000dm006", "870evo", "pm883"}) {
    EXPECT_TRUE(DiskEngine::FlushReachesModel(FlushProfile(name, {}))) << name;
  }
}

TEST(DiskEngineFlushTest, AFlushWaitsForTheDestageOfTheCachedWrites) {
  BackingFile backing;
  ASSERT_GE(backing.fd(), 0);
  // A small, slow disk served inline (queue depth 1): a destage is ~5 ms of seek and rotation.
  const DiskProfile p = FlushProfile(
      "hus728t8", {"capacity_bytes=1048576", "queue_depth=1", "avg_seek_ms=4", "full_stroke_ms=8"});
  DiskStats stats;
  DiskEngine engine(backing.fd(), p, &stats, nullptr, 0, 0);
  std::string err;
  ASSERT_TRUE(engine.Start(&err)) << err;
  std::vector<char> buf(4096, 'x');
  ASSERT_EQ(engine.Submit(true, buf.data(), buf.size(), 512 * 1024), 4096);
  ASSERT_EQ(engine.Submit(true, buf.data(), buf.size(), 8192), 4096);
  const int64_t written = MonotonicNowNs();
  const DiskCounters before_flush = stats.Snapshot(written);
  EXPECT_EQ(engine.Flush(), 0);
  const int64_t flushed = MonotonicNowNs();
  engine.Stop();
  // The writes were cached (the model charged a host transfer each); the flush waited for two
  // positionings, in the model and on the clock (the engine serves a request no sooner than its
  // modelled end). The model's times, not the wall clock's, say how little the writes took: a
  // loaded CI machine took 4.7 ms of wall time for them once.
  EXPECT_LT(before_flush.modelled_ns, 2'000'000) << "cached writes should not wait for the media";
  const DiskCounters c = stats.Snapshot(flushed);
  EXPECT_GT(c.modelled_ns - before_flush.modelled_ns, 2'000'000);
  EXPECT_GT(flushed - written, 2'000'000);
  EXPECT_EQ(c.writes, 2u);
  EXPECT_EQ(c.flushes, 1u);
  EXPECT_EQ(c.requests, 2u);  // A flush is not a request.
  EXPECT_EQ(DiskStatsToJson(c, p, 0)["flushes"], 1);
}

TEST(DiskEngineFlushTest, ACachelessProfileAnswersAFlushAtOnce) {
  BackingFile backing;
  ASSERT_GE(backing.fd(), 0);
  const DiskProfile p = FlushProfile("ide-2003", {});
  DiskStats stats;
  DiskEngine engine(backing.fd(), p, &stats, nullptr, 0, 0);
  std::string err;
  ASSERT_TRUE(engine.Start(&err)) << err;
  EXPECT_EQ(engine.Flush(), 0);
  engine.Stop();
  const DiskCounters c = stats.Snapshot(0);
  EXPECT_EQ(c.flushes, 0u);
  EXPECT_EQ(c.requests, 0u);
  EXPECT_FALSE(DiskStatsToJson(c, p, 0).contains("flushes"));  // ide-2003's stats.json as before
}

TEST(DiskEngineFlushTest, AProfileWithACacheAdvertisesWriteBack) {
  using Attrs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(EmulatedQueueAttrs(FlushProfile("hus728t8", {})), (Attrs{{"rotational", "1"},
                                                                     {"max_sectors_kb", "128"},
                                                                     {"wbt_lat_usec", "0"},
                                                                     {"write_cache", "write back"},
                                                                     {"read_ahead_kb", "128"}}));
  EXPECT_EQ(EmulatedQueueAttrs(FlushProfile("pm883", {})),
            (Attrs{{"rotational", "0"}, {"wbt_lat_usec", "0"}, {"write_cache", "write back"}}));
  EmulatedStack stack;
  stack.queue_attrs = EmulatedQueueAttrs(FlushProfile("pm883", {}));
  EXPECT_EQ(EmulatedQueueSettingsJson(stack)["write_cache"], "write back");
}

}  // namespace
}  // namespace elevbench
