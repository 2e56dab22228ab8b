// DeviceControl against a fake kernel (a write hook over a fake sysfs tree) that models the
// couplings measured on 6.18: limits writes recompute read_ahead_kb, nr_requests under none
// resizes the driver tags shown in debugfs, a switch resets nr_requests, bfq turns default
// writeback throttling off. Then the same on a real loop device (root only): driver tags hold
// across every scheduler and come back after a normal restore and after SIGKILL + restore.

#include "harness/device/device_control.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fakes.h"
#include "harness/core/strings.h"
#include "harness/device/driver_tags.h"
#include "harness/device/restore_journal.h"
#include "harness/device/scratch_device.h"
#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

constexpr int kTagSetDepth = 128;

// What the kernel keeps beside the files: the driver tags and the writeback-throttling state.
struct FakeQueueState {
  int tags = kTagSetDepth;
  bool wbt_manual = false;
  bool reset_tags_on_switch = false;          // a (hypothetical) kernel that breaks the tags
  bool read_ahead_moves_max_sectors = false;  // a coupling elevbench does not order for
  std::vector<std::string> writes;            // "attr=value", in order
};

class DeviceControlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    temp_ = std::make_unique<testing::ScopedTempDir>();
    root_ = temp_->path() + "/root";
    state_dir_ = temp_->path() + "/state";
    Put("queue/scheduler", "none [mq-deadline] kyber bfq \n");
    Put("queue/nr_requests", "256\n");
    Put("queue/read_ahead_kb", "2560\n");
    Put("queue/max_sectors_kb", "1280\n");
    Put("queue/rotational", "0\n");
    Put("queue/wbt_lat_usec", "2000\n");
    Put("queue/nomerges", "0\n");
    PutTags(kTagSetDepth);
    sysfs_ = Sysfs(root_);
    sysfs_.set_write_hook(MakeHook());
  }

  void Put(const std::string& rel, const std::string& content) {
    const std::string path = root_ + "/sys/block/loop9/" + rel;
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << content;
  }
  std::string Get(const std::string& rel) {
    std::string v;
    std::string err;
    EXPECT_TRUE(sysfs_.Read("/sys/block/loop9/" + rel, &v, &err)) << err;
    return v;
  }
  void PutTags(int depth) {
    const std::string path = root_ + DriverTagsDebugfsPath("loop9");
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << "nr_tags=" << kTagSetDepth
                        << "\nnr_reserved_tags=0\nactive_queues=0\n\nbitmap_tags:\ndepth=" << depth
                        << "\nbusy=0\ncleared=0\nbits_per_word=32\nmin_shallow_depth=4294967295\n"
                        << "\nbreserved_tags:\ndepth=0\n";
  }
  int Tags() {
    int depth = -1;
    std::string err;
    EXPECT_TRUE(ReadDriverTags(sysfs_, "loop9", &depth, &err)) << err;
    return depth;
  }
  std::string Scheduler() {
    std::vector<std::string> names;
    std::string current;
    std::string err;
    EXPECT_TRUE(ParseSchedulerLine(Get("queue/scheduler"), &names, &current, &err)) << err;
    return current;
  }

  // The fake kernel. Files hold what sysfs shows; `state_` what it does not.
  Sysfs::WriteHook MakeHook() {
    return [this](const std::string& mapped, const std::string& system_path, std::string_view value,
                  std::string* err) -> bool {
      const std::string attr = system_path.substr(system_path.rfind('/') + 1);
      const std::string v = TrimWhitespace(value);
      state_.writes.push_back(attr + "=" + v);
      if (attr == "scheduler") {
        const std::string before = Scheduler();
        if (!testing::MakeFakeKernelWriteHook()(mapped, system_path, value, err)) return false;
        if (before == v) return true;  // the kernel ignores a switch to the current one
        Put("queue/nr_requests", v == "none" ? std::to_string(kTagSetDepth) + "\n" : "256\n");
        if (!state_.wbt_manual && v == "bfq") Put("queue/wbt_lat_usec", "0\n");
        if (!state_.wbt_manual && before == "bfq") Put("queue/wbt_lat_usec", "2000\n");
        if (state_.reset_tags_on_switch) PutTags(state_.tags = kTagSetDepth);
        return true;
      }
      if (attr == "nr_requests") {
        const int n = std::max(kMinDriverTags, std::stoi(v));
        if (std::to_string(n) == Get("queue/nr_requests")) return true;  // no-op
        if (Scheduler() == "none") {
          if (n > kTagSetDepth) {
            *err = "write " + system_path + ": Invalid argument";
            return false;
          }
          PutTags(state_.tags = n);
        }
        Put("queue/nr_requests", std::to_string(n) + "\n");
        return true;
      }
      if (attr == "max_sectors_kb" || attr == "rotational") {
        if (!Sysfs::PlainWrite(mapped, system_path, value, err)) return false;
        // Committing queue limits recomputes readahead (6.18: twice the request size here).
        const int max_kb = std::stoi(Get("queue/max_sectors_kb"));
        Put("queue/read_ahead_kb", std::to_string(2 * max_kb) + "\n");
        return true;
      }
      if (attr == "read_ahead_kb" && state_.read_ahead_moves_max_sectors) {
        Put("queue/max_sectors_kb", "256\n");
      }
      if (attr == "wbt_lat_usec") state_.wbt_manual = true;
      return Sysfs::PlainWrite(mapped, system_path, value, err);
    };
  }

  std::unique_ptr<testing::ScopedTempDir> temp_;
  std::string root_;
  std::string state_dir_;
  Sysfs sysfs_;
  FakeQueueState state_;
};

const std::vector<std::pair<std::string, std::string>> kTodaysOrder = {
    {"rotational", "1"}, {"read_ahead_kb", "128"}, {"max_sectors_kb", "128"}};

TEST(OrderQueueAttrsTest, ReadAheadLastAndTheLastValueWins) {
  const auto ordered = OrderQueueAttrs({{"read_ahead_kb", "128"},
                                        {"rotational", "1"},
                                        {"max_sectors_kb", "128"},
                                        {"wbt_lat_usec", "0"},
                                        {"read_ahead_kb", "512"},
                                        {"nr_requests", "64"}});
  EXPECT_EQ(ordered, (std::vector<std::pair<std::string, std::string>>{{"rotational", "1"},
                                                                       {"max_sectors_kb", "128"},
                                                                       {"wbt_lat_usec", "0"},
                                                                       {"nr_requests", "64"},
                                                                       {"read_ahead_kb", "512"}}));
}

TEST(ParseTagsDepthTest, ReadsTheBitmapTagsDepth) {
  int depth = 0;
  std::string err;
  ASSERT_TRUE(
      ParseTagsDepth("nr_tags=128\nnr_reserved_tags=0\nactive_queues=0\n\nbitmap_tags:\n"
                     "depth=4\nbusy=0\nmin_shallow_depth=4294967295\n\nbreserved_tags:\n"
                     "depth=0\n",
                     &depth, &err))
      << err;
  EXPECT_EQ(depth, 4);
  EXPECT_FALSE(ParseTagsDepth("nr_tags=128\nmin_shallow_depth=7\n", &depth, &err));
  EXPECT_FALSE(ParseTagsDepth("bitmap_tags:\ndepth=x\n", &depth, &err));
}

TEST_F(DeviceControlTest, PinnedReadaheadHoldsAgainstTheRecomputingKernel) {
  RestoreJournal journal(sysfs_);
  std::string err;
  ASSERT_TRUE(journal.Open(state_dir_, "test", &err)) << err;
  DeviceControl control(sysfs_, &journal, {"loop9"});
  // Given in the order that used to leave read_ahead_kb at 256.
  ASSERT_TRUE(control.PinQueueAttrs(kTodaysOrder, &err)) << err;
  EXPECT_EQ(Get("queue/read_ahead_kb"), "128");
  EXPECT_EQ(Get("queue/max_sectors_kb"), "128");
  EXPECT_EQ(Get("queue/rotational"), "1");
  EXPECT_EQ(state_.writes.back(), "read_ahead_kb=128");
  // And again after a switch.
  std::vector<SchedulerConfig> configs;
  ASSERT_TRUE(ParseSchedulerList("bfq", &configs, &err)) << err;
  ASSERT_TRUE(control.Apply(configs[0], &err)) << err;
  EXPECT_EQ(Get("queue/read_ahead_kb"), "128");
  // Restore writes the originals back in an order that holds too.
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(Get("queue/read_ahead_kb"), "2560");
  EXPECT_EQ(Get("queue/max_sectors_kb"), "1280");
  EXPECT_EQ(Get("queue/rotational"), "0");
  EXPECT_EQ(Scheduler(), "mq-deadline");
}

TEST_F(DeviceControlTest, AMovedPinFailsLoudly) {
  state_.read_ahead_moves_max_sectors = true;
  RestoreJournal journal(sysfs_);
  std::string err;
  ASSERT_TRUE(journal.Open(state_dir_, "test", &err)) << err;
  DeviceControl control(sysfs_, &journal, {"loop9"});
  EXPECT_FALSE(control.PinQueueAttrs(kTodaysOrder, &err));
  EXPECT_EQ(err,
            "loop9 queue/max_sectors_kb: pinned 128 but reads 256 after the last write (the "
            "kernel changed it)");
  std::vector<std::string> log;
  EXPECT_TRUE(journal.RestoreAll(&log, &err)) << err;
}

// A kernel without blk-mq debugfs (CONFIG_BLK_DEBUG_FS unset): the disk's debugfs directory is
// there but empty. The tags are still resized through nr_requests under none, and the journal
// records the tag set's own depth (mq/0/nr_tags) to restore; nothing can read them back, so the
// check is left to the disk's queue depth rather than failing the run.
TEST_F(DeviceControlTest, DriverTagsAreSetAndJournaledWithoutBlkMqDebugfs) {
  fs::remove(root_ + DriverTagsDebugfsPath("loop9"));
  fs::remove(root_ + "/sys/kernel/debug/block/loop9/hctx0");
  Put("mq/0/nr_tags", std::to_string(kTagSetDepth) + "\n");
  sysfs_.set_write_hook([hook = MakeHook(), this](const std::string& mapped,
                                                  const std::string& system_path,
                                                  std::string_view value, std::string* err) {
    const bool ok = hook(mapped, system_path, value, err);
    fs::remove(root_ + DriverTagsDebugfsPath("loop9"));  // the fake kernel keeps them unseen
    fs::remove(root_ + "/sys/kernel/debug/block/loop9/hctx0");
    return ok;
  });
  int depth = 0;
  bool no_blk_mq_debugfs = false;
  std::string err;
  EXPECT_FALSE(ReadDriverTags(sysfs_, "loop9", &depth, &no_blk_mq_debugfs, &err));
  EXPECT_TRUE(no_blk_mq_debugfs) << err;
  EXPECT_FALSE(ReadDriverTags(sysfs_, "loop7", &depth, &no_blk_mq_debugfs, &err));
  EXPECT_FALSE(no_blk_mq_debugfs) << "a disk that is not there is another failure";
  RestoreJournal journal(sysfs_);
  ASSERT_TRUE(journal.Open(state_dir_, "test", &err)) << err;
  DeviceControl control(sysfs_, &journal, {"loop9"});
  ASSERT_TRUE(control.SetDriverTags(4, &err)) << err;
  EXPECT_EQ(state_.tags, 4);
  EXPECT_EQ(control.DriverTags("loop9"), 4);
  EXPECT_FALSE(control.DriverTagsReadBack("loop9")) << "set, but not read back";
  EXPECT_EQ(Scheduler(), "mq-deadline");
  std::vector<SchedulerConfig> configs;
  ASSERT_TRUE(ParseSchedulerList("kyber,none", &configs, &err)) << err;
  for (const SchedulerConfig& c : configs) {
    ASSERT_TRUE(control.Apply(c, &err)) << err;
    EXPECT_EQ(state_.tags, 4) << c.scheduler;
  }
  bool journaled = false;
  for (const JournalEntry& e : journal.entries()) {
    if (e.kind == JournalEntryKind::kDriverTags) {
      journaled = true;
      EXPECT_EQ(e.original, std::to_string(kTagSetDepth));
    }
  }
  EXPECT_TRUE(journaled);
  std::vector<std::string> log;
  EXPECT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(state_.tags, kTagSetDepth);
}

TEST_F(DeviceControlTest, DriverTagsHoldAcrossEverySchedulerSwitch) {
  RestoreJournal journal(sysfs_);
  std::string err;
  ASSERT_TRUE(journal.Open(state_dir_, "test", &err)) << err;
  DeviceControl control(sysfs_, &journal, {"loop9"});
  EXPECT_FALSE(control.SetDriverTags(1, &err));
  EXPECT_NE(err.find("at least 4"), std::string::npos) << err;
  ASSERT_TRUE(control.SetDriverTags(4, &err)) << err;
  EXPECT_EQ(Tags(), 4);
  EXPECT_EQ(control.DriverTags("loop9"), 4);
  EXPECT_TRUE(control.DriverTagsReadBack("loop9"));
  EXPECT_EQ(Scheduler(), "mq-deadline");  // the scheduler found is selected again
  ASSERT_TRUE(control.PinQueueAttrs({{"wbt_lat_usec", "0"}, {"nr_requests", "64"}}, &err)) << err;
  std::vector<SchedulerConfig> configs;
  ASSERT_TRUE(ParseSchedulerList("none,mq-deadline,kyber,bfq,bfq:low_latency=0", &configs, &err));
  Put("queue/iosched/low_latency", "1\n");
  for (int round = 0; round < 2; ++round) {
    for (const SchedulerConfig& c : configs) {
      ASSERT_TRUE(control.Apply(c, &err)) << DisplayName(c) << ": " << err;
      EXPECT_EQ(Tags(), 4) << DisplayName(c);
      EXPECT_EQ(Get("queue/wbt_lat_usec"), "0") << DisplayName(c);
      // nr_requests is the scheduler's pool; under none it would be the tags, and is left alone.
      EXPECT_EQ(Get("queue/nr_requests"), c.scheduler == "none" ? "128" : "64") << DisplayName(c);
    }
  }
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(Tags(), kTagSetDepth);
  EXPECT_EQ(Scheduler(), "mq-deadline");
  EXPECT_EQ(Get("queue/wbt_lat_usec"), "2000");
}

// A scheduler built as a module is listed once loaded, and the kernel loads it when its name is
// written (request_module: a --kernels guest's generic kernel has bfq as a module, issue 57 §1):
// the write is tried before the scheduler is refused, and one the kernel has not is refused
// naming what the disk offers.
TEST_F(DeviceControlTest, ASchedulerLoadedWhenWrittenIsTriedBeforeItIsRefused) {
  Put("queue/scheduler", "none [mq-deadline] kyber \n");
  const Sysfs::WriteHook kernel = MakeHook();
  sysfs_.set_write_hook([this, kernel](const std::string& mapped, const std::string& system_path,
                                       std::string_view value, std::string* err) {
    if (Sysfs::IsSchedulerPath(system_path) && TrimWhitespace(value) == "bfq" &&
        Get("queue/scheduler").find("bfq") == std::string::npos) {
      Put("queue/scheduler", "none mq-deadline kyber bfq \n");  // the module loaded
    }
    return kernel(mapped, system_path, value, err);
  });
  RestoreJournal journal(sysfs_);
  std::string err;
  ASSERT_TRUE(journal.Open(state_dir_, "test", &err)) << err;
  DeviceControl control(sysfs_, &journal, {"loop9"});
  ASSERT_TRUE(control.Apply(SchedulerConfig{"bfq", {}, ""}, &err)) << err;
  EXPECT_EQ(Scheduler(), "bfq");
  EXPECT_FALSE(control.Apply(SchedulerConfig{"nosuch", {}, ""}, &err));
  EXPECT_EQ(err, "loop9 does not offer scheduler 'nosuch' (has: none mq-deadline kyber [bfq])");
  EXPECT_EQ(Scheduler(), "bfq");
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(Scheduler(), "mq-deadline");
}

TEST_F(DeviceControlTest, ASwitchThatMovesTheTagsFailsApply) {
  RestoreJournal journal(sysfs_);
  std::string err;
  ASSERT_TRUE(journal.Open(state_dir_, "test", &err)) << err;
  DeviceControl control(sysfs_, &journal, {"loop9"});
  ASSERT_TRUE(control.SetDriverTags(4, &err)) << err;
  state_.reset_tags_on_switch = true;
  std::vector<SchedulerConfig> configs;
  ASSERT_TRUE(ParseSchedulerList("kyber", &configs, &err)) << err;
  EXPECT_FALSE(control.Apply(configs[0], &err));
  EXPECT_EQ(err, "loop9 driver tags: expected 4 but debugfs shows 128");
  std::vector<std::string> log;
  EXPECT_TRUE(journal.RestoreAll(&log, &err)) << err;
}

// Growing the tags back: nr_requests shows 128 under none while the tags are 4, and the kernel
// ignores a write of the value it shows, so restore writes another value first.
TEST_F(DeviceControlTest, RestoreGrowsTheTagsBackThroughNoneEvenAfterACrash) {
  {
    RestoreJournal journal(sysfs_);
    std::string err;
    ASSERT_TRUE(journal.Open(state_dir_, "crashing run", &err)) << err;
    DeviceControl control(sysfs_, &journal, {"loop9"});
    ASSERT_TRUE(control.SetDriverTags(4, &err)) << err;
    ASSERT_TRUE(control.PinQueueAttrs({{"wbt_lat_usec", "0"}}, &err)) << err;
    std::vector<SchedulerConfig> configs;
    ASSERT_TRUE(ParseSchedulerList("bfq", &configs, &err)) << err;
    ASSERT_TRUE(control.Apply(configs[0], &err)) << err;
    // The journal is dropped without RestoreAll: a crash.
  }
  EXPECT_EQ(Tags(), 4);
  const nlohmann::json journal =
      nlohmann::json::parse(testing::ReadFileOrEmpty(state_dir_ + "/journal.json"));
  bool has_tags_entry = false;
  for (const auto& e : journal["entries"]) {
    if (e["kind"] == "driver_tags") {
      has_tags_entry = true;
      EXPECT_EQ(e["path"], "/sys/block/loop9/queue/nr_requests");
      EXPECT_EQ(e["original"], "128");
    }
  }
  EXPECT_TRUE(has_tags_entry) << journal.dump(2);
  state_.writes.clear();
  std::vector<std::string> log;
  std::string err;
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state_dir_, &log, &err, sysfs_)) << err;
  EXPECT_EQ(Tags(), kTagSetDepth);
  EXPECT_EQ(Scheduler(), "mq-deadline");
  EXPECT_EQ(Get("queue/wbt_lat_usec"), "2000");
  const auto& w = state_.writes;
  const std::vector<std::string> sequence = {"scheduler=none", "nr_requests=127", "nr_requests=128",
                                             "scheduler=bfq"};
  auto at = std::search(w.begin(), w.end(), sequence.begin(), sequence.end());
  EXPECT_NE(at, w.end()) << ::testing::PrintToString(w);
  EXPECT_NE(std::find(log.begin(), log.end(), "restored the driver tags of loop9 to 128"),
            log.end())
      << ::testing::PrintToString(log);
}

// ---- Root: a real loop device, created for the test and removed at the end.

struct LoopQueue {
  std::string scheduler;
  std::string nr_requests;
  std::string wbt_lat_usec;
  std::string read_ahead_kb;
  std::string max_sectors_kb;
  int tags = -1;
  bool operator==(const LoopQueue&) const = default;
};

void PrintTo(const LoopQueue& q, std::ostream* os) {
  *os << "{" << q.scheduler << ", nr_requests " << q.nr_requests << ", wbt " << q.wbt_lat_usec
      << ", ra " << q.read_ahead_kb << ", max_sectors " << q.max_sectors_kb << ", tags " << q.tags
      << "}";
}

LoopQueue ReadLoopQueue(const std::string& name) {
  Sysfs live;
  LoopQueue q;
  std::string err;
  auto get = [&](const char* attr, std::string* out) {
    EXPECT_TRUE(live.Read(QueuePath(name, attr), out, &err)) << err;
  };
  get("scheduler", &q.scheduler);
  get("nr_requests", &q.nr_requests);
  get("wbt_lat_usec", &q.wbt_lat_usec);
  get("read_ahead_kb", &q.read_ahead_kb);
  get("max_sectors_kb", &q.max_sectors_kb);
  bool no_blk_mq_debugfs = false;  // a kernel that cannot show them: tags stay -1
  EXPECT_TRUE(ReadDriverTags(live, name, &q.tags, &no_blk_mq_debugfs, &err) || no_blk_mq_debugfs)
      << err;
  return q;
}

// A loop device of the test's own (LOOP_CTL_ADD; removed by the guard's journal), on a small image.
class LoopDeviceRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0 || access("/dev/loop-control", F_OK) != 0) {
      GTEST_SKIP() << "needs root and /dev/loop-control";
    }
    if (!ProgramInPath("losetup")) GTEST_SKIP() << "needs losetup";
    temp_ = std::make_unique<testing::ScopedTempDir>();
    image_ = temp_->path() + "/disk.img";
    { std::ofstream(image_).close(); }
    fs::resize_file(image_, 16 << 20);
    std::string err;
    ASSERT_TRUE(owner_.Open(temp_->path() + "/owner-state", "loop owner", &err)) << err;
    ASSERT_TRUE(AttachLoopDevice(image_, &owner_, &device_, &err)) << err;
    name_ = device_.substr(5);
    before_ = ReadLoopQueue(name_);
  }
  void TearDown() override {
    if (!owner_.is_open()) return;
    std::vector<std::string> log;
    std::string err;
    EXPECT_TRUE(owner_.RestoreAll(&log, &err)) << err;
    EXPECT_FALSE(fs::exists("/sys/block/" + name_)) << device_ << " was not removed";
  }

  std::unique_ptr<testing::ScopedTempDir> temp_;
  RestoreJournal owner_;  // holds the device itself; restored (removed) last
  std::string image_;
  std::string device_;
  std::string name_;
  LoopQueue before_;
};

// The run's changes in their own journal, as a run makes them on a device it did not create.
void ChangeEverything(RestoreJournal* journal, const std::string& name, bool all_schedulers) {
  Sysfs live;
  DeviceControl control(live, journal, {name});
  std::string err;
  ASSERT_TRUE(control.SetDriverTags(4, &err)) << err;
  ASSERT_TRUE(control.PinQueueAttrs({{"rotational", "1"},
                                     {"read_ahead_kb", "128"},
                                     {"max_sectors_kb", "128"},
                                     {"wbt_lat_usec", "0"}},
                                    &err))
      << err;
  std::vector<std::string> available;
  ASSERT_TRUE(control.AvailableSchedulers(&available, &err)) << err;
  std::vector<SchedulerConfig> configs = ExpandAll(available);
  if (!all_schedulers) configs = {configs.back()};
  configs.push_back(configs.front());
  for (const SchedulerConfig& c : configs) {
    ASSERT_TRUE(control.Apply(c, &err)) << c.scheduler << ": " << err;
    LoopQueue q = ReadLoopQueue(name);
    if (q.tags != -1) {  // -1: no blk-mq debugfs to show them
      EXPECT_EQ(q.tags, 4) << c.scheduler;
    }
    EXPECT_EQ(q.wbt_lat_usec, "0") << c.scheduler;
    EXPECT_EQ(q.read_ahead_kb, "128") << c.scheduler;
    EXPECT_EQ(q.max_sectors_kb, "128") << c.scheduler;
  }
}

TEST_F(LoopDeviceRootTest, DriverTagsHoldAcrossEverySchedulerAndComeBack) {
  if (before_.tags == -1) {
    GTEST_SKIP() << "this kernel has no blk-mq debugfs (CONFIG_BLK_DEBUG_FS) to show the driver "
                    "tags; EmulatedStackRootTest checks them by the disk's queue depth";
  }
  std::string err;
  {
    RestoreJournal run;
    ASSERT_TRUE(run.Open(temp_->path() + "/run-state", "run", &err)) << err;
    struct Guard {
      RestoreJournal* j;
      ~Guard() {
        std::vector<std::string> log;
        std::string e;
        EXPECT_TRUE(j->RestoreAll(&log, &e)) << e;
      }
    } guard{&run};
    ChangeEverything(&run, name_, true);
  }
  EXPECT_EQ(ReadLoopQueue(name_), before_);
}

TEST_F(LoopDeviceRootTest, SigkilledRunIsRestoredByElevbenchRestore) {
  const std::string state = temp_->path() + "/run-state";
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t pid = fork();
  if (pid == 0) {
    close(ready[0]);
    RestoreJournal run;
    std::string err;
    if (!run.Open(state, "run to be killed", &err)) _exit(2);
    ChangeEverything(&run, name_, false);
    if (::testing::Test::HasFailure()) _exit(3);
    char c = 'r';
    if (write(ready[1], &c, 1) != 1) _exit(4);
    pause();
    _exit(0);
  }
  close(ready[1]);
  char c = 0;
  const bool got = read(ready[0], &c, 1) == 1;
  close(ready[0]);
  if (got && before_.tags != -1) {  // -1: no blk-mq debugfs to show them
    EXPECT_EQ(ReadLoopQueue(name_).tags, 4);
  }
  kill(pid, SIGKILL);
  int status = 0;
  ASSERT_TRUE(ReapChildWithin(pid, 300, &status)) << "pid " << pid << " still running after 300 s";
  ASSERT_TRUE(got) << "the run failed before it was killed (status " << status << ")";
  ASSERT_TRUE(fs::exists(state + "/journal.json"));
  ProcessResult r;
  std::string err;
  bool ran = false;
  {
    testing::ScopedEnv state_dir("ELEVBENCH_STATE_DIR", state);
    ran = RunProcess({ELEVBENCH_BINARY, "restore"}, testing::RestoreProcessOptions(), &r, &err);
  }
  ASSERT_TRUE(ran) << err;
  EXPECT_EQ(r.exit_code, 0) << r.output << r.error_output;
  EXPECT_FALSE(fs::exists(state + "/journal.json"));
  EXPECT_EQ(ReadLoopQueue(name_), before_);
}

}  // namespace
}  // namespace elevbench
