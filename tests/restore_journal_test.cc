#include "harness/device/restore_journal.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "fakes.h"
#include "harness/device/scratch_device.h"
#include "harness/process/bounded_call.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

const std::string kSched = "/sys/block/sdz/queue/scheduler";
const std::string kReadAhead = "/sys/block/sdz/queue/read_ahead_kb";
const std::string kReadExpire = "/sys/block/sdz/queue/iosched/read_expire";

std::string MakeTempDir(const char* tag) {
  std::string tmpl = std::string("/tmp/elevbench_") + tag + "_XXXXXX";
  return mkdtemp(tmpl.data()) ? tmpl : "";
}

// Forks a child that runs `sleep 30`, optionally ignoring SIGTERM first.
pid_t SpawnSleeper(bool ignore_term) {
  pid_t pid = fork();
  if (pid == 0) {
    if (ignore_term) signal(SIGTERM, SIG_IGN);
    execlp("sleep", "sleep", "30", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the exec happened, so the start time and comm are the sleeper's.
  for (int i = 0; i < 200; ++i) {
    std::string comm = testing::ReadFileOrEmpty("/proc/" + std::to_string(pid) + "/comm");
    if (comm == "sleep\n") break;
    usleep(5000);
  }
  return pid;
}

class RestoreJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir("journal");
    ASSERT_FALSE(dir_.empty());
    root_ = dir_ + "/root";
    state_ = dir_ + "/state";
    Put("sys/block/sdz/queue/scheduler", "none [mq-deadline] kyber bfq \n");
    Put("sys/block/sdz/queue/read_ahead_kb", "128\n");
    Put("sys/block/sdz/queue/iosched/read_expire", "250\n");  // an admin-tuned value
    Put("proc/sys/vm/dirty_bytes", "0\n");
    sysfs_ = Sysfs(root_);
    sysfs_.set_write_hook(testing::MakeFakeKernelWriteHook());
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Put(const std::string& rel, const std::string& content) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel) << content;
  }
  std::string Get(const std::string& system_path) {
    std::string v;
    std::string err;
    EXPECT_TRUE(sysfs_.Read(system_path, &v, &err)) << err;
    return v;
  }
  std::string JournalPath() const { return state_ + "/journal.json"; }

  // Records and changes the scheduler and read-ahead, the way a run does.
  void RecordAndChange(RestoreJournal* j) {
    std::string err;
    ASSERT_TRUE(j->RecordSysfsValue(kSched, &err)) << err;
    ASSERT_TRUE(sysfs_.WriteVerified(kSched, "bfq", &err)) << err;
    ASSERT_TRUE(j->RecordSysfsValue(kReadAhead, &err)) << err;
    ASSERT_TRUE(sysfs_.WriteVerified(kReadAhead, "1024", &err)) << err;
    ASSERT_TRUE(j->RecordSysfsValue(kSched, &err)) << err;  // save-once: no new entry
    ASSERT_TRUE(sysfs_.WriteVerified(kSched, "kyber", &err)) << err;
  }

  std::string dir_, root_, state_;
  Sysfs sysfs_;
};

TEST_F(RestoreJournalTest, CrashThenLeftoverJournalRestores) {
  {
    RestoreJournal j(sysfs_);
    std::string err;
    ASSERT_TRUE(j.Open(state_, "test run", &err)) << err;
    RecordAndChange(&j);
    EXPECT_EQ(j.entries().size(), 2u);
  }  // dropped without RestoreAll: a crash
  ASSERT_TRUE(fs::exists(JournalPath()));
  nlohmann::json on_disk = nlohmann::json::parse(testing::ReadFileOrEmpty(JournalPath()));
  EXPECT_EQ(on_disk["entries"][0]["original"], "mq-deadline");
  EXPECT_EQ(on_disk["entries"][1]["original"], "128");
  EXPECT_EQ(on_disk["owner"], "test run");

  std::vector<std::string> log;
  std::string err;
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_)) << err;
  EXPECT_EQ(Get(kSched), "none [mq-deadline] kyber bfq");
  EXPECT_EQ(Get(kReadAhead), "128");
  EXPECT_FALSE(fs::exists(JournalPath()));
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[1], "restored " + kReadAhead + " to '128'");
  // Idempotent: a second application finds nothing.
  log.clear();
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_)) << err;
  EXPECT_EQ(log, std::vector<std::string>{"no leftover journal in " + state_});
}

TEST_F(RestoreJournalTest, CrashOfAnotherProcess) {
  pid_t child = fork();
  if (child == 0) {
    RestoreJournal j(sysfs_);
    std::string err;
    bool ok = j.Open(state_, "child", &err) && j.RecordSysfsValue(kSched, &err) &&
              sysfs_.WriteVerified(kSched, "bfq", &err);
    _exit(ok ? 0 : 1);  // no destructor, no restore: killed mid-run
  }
  int status = 0;
  ASSERT_TRUE(ReapChildWithin(child, 300, &status))
      << "pid " << child << " still running after 300 s";
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(Get(kSched), "none mq-deadline kyber [bfq]");
  std::vector<std::string> log;
  std::string err;
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_)) << err;
  EXPECT_EQ(Get(kSched), "none [mq-deadline] kyber bfq");
  EXPECT_NE(log[0].find("left by pid " + std::to_string(child) + " (child)"), std::string::npos);
}

TEST_F(RestoreJournalTest, RestoreAllIsIdempotent) {
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  RecordAndChange(&j);
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log, (std::vector<std::string>{"restored " + kReadAhead + " to '128'",
                                           "restored " + kSched + " to 'mq-deadline'"}));
  EXPECT_FALSE(fs::exists(JournalPath()));
  EXPECT_TRUE(j.entries().empty());
  log.clear();
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_TRUE(log.empty());
  // Values already back in place are skipped, not rewritten.
  ASSERT_TRUE(j.RecordSysfsValue(kReadAhead, &err)) << err;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log, std::vector<std::string>{kReadAhead + " already '128'"});
}

TEST_F(RestoreJournalTest, TunableComesBackAfterItsScheduler) {
  // Switching the elevator drops queue/iosched/; selecting mq-deadline again brings defaults.
  Sysfs::WriteHook base = testing::MakeFakeKernelWriteHook();
  std::string iosched = root_ + "/sys/block/sdz/queue/iosched";
  sysfs_.set_write_hook([=](const std::string& mapped, const std::string& path,
                            std::string_view value, std::string* err) {
    if (!base(mapped, path, value, err)) return false;
    if (Sysfs::IsSchedulerPath(path)) {
      fs::remove_all(iosched);
      if (value == "mq-deadline") {
        fs::create_directories(iosched);
        std::ofstream(iosched + "/read_expire") << "500\n";
      }
    }
    return true;
  });
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  ASSERT_TRUE(j.RecordSysfsValue(kSched, &err)) << err;
  ASSERT_TRUE(j.RecordSysfsValue(kReadExpire, &err)) << err;
  ASSERT_TRUE(sysfs_.WriteVerified(kReadExpire, "100", &err)) << err;
  ASSERT_TRUE(sysfs_.WriteVerified(kSched, "bfq", &err)) << err;
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(Get(kSched), "none [mq-deadline] kyber bfq");
  EXPECT_EQ(Get(kReadExpire), "250");
  EXPECT_EQ(log.back(), "restored " + kReadExpire + " to '250'");
}

TEST_F(RestoreJournalTest, CoupledSysctlsRestoreInEitherOrder) {
  // vm.dirty_bytes and vm.dirty_ratio zero each other, and dirty_bytes refuses 0: the write
  // that fails in the first pass is unnecessary after its partner is restored.
  const std::string bytes = "/proc/sys/vm/dirty_bytes";
  const std::string ratio = "/proc/sys/vm/dirty_ratio";
  const Sysfs mapper(root_);
  sysfs_.set_write_hook([bytes, ratio, mapper](const std::string& mapped, const std::string& path,
                                               std::string_view value, std::string* err) {
    if (path == bytes && std::stoll(std::string(value)) < 8192) {
      *err = "write " + path + ": Invalid argument";
      return false;
    }
    if (!Sysfs::PlainWrite(mapped, path, value, err)) return false;
    const std::string& other = path == bytes ? ratio : bytes;
    return Sysfs::PlainWrite(mapper.Map(other), other, "0", err);
  });
  for (bool bytes_first : {true, false}) {
    Put("proc/sys/vm/dirty_bytes", "0\n");
    Put("proc/sys/vm/dirty_ratio", "20\n");
    RestoreJournal j(sysfs_);
    std::string err;
    ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
    ASSERT_TRUE(j.RecordSysfsValue(bytes_first ? bytes : ratio, &err)) << err;
    ASSERT_TRUE(j.RecordSysfsValue(bytes_first ? ratio : bytes, &err)) << err;
    ASSERT_TRUE(sysfs_.WriteVerified(bytes, "50331648", &err)) << err;
    EXPECT_EQ(Get(ratio), "0");
    std::vector<std::string> log;
    ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
    EXPECT_EQ(Get(ratio), "20");
    EXPECT_EQ(Get(bytes), "0");
  }
}

TEST_F(RestoreJournalTest, VanishedAttributeCountsAsGone) {
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  ASSERT_TRUE(j.RecordSysfsValue(kReadExpire, &err)) << err;
  fs::remove_all(root_ + "/sys/block/sdz/queue/iosched");
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_NE(log.back().find("is gone"), std::string::npos);
  EXPECT_FALSE(fs::exists(JournalPath()));
}

TEST_F(RestoreJournalTest, FailuresKeepOnlyFailedEntries) {
  auto fail = std::make_shared<bool>(true);
  Sysfs::WriteHook base = testing::MakeFakeKernelWriteHook();
  sysfs_.set_write_hook([=](const std::string& mapped, const std::string& path,
                            std::string_view value, std::string* err) {
    if (*fail && path == kReadAhead) {
      *err = "write " + path + ": Device or resource busy";
      return false;
    }
    return base(mapped, path, value, err);
  });
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  ASSERT_TRUE(j.RecordSysfsValue(kSched, &err)) << err;
  ASSERT_TRUE(sysfs_.WriteVerified(kSched, "bfq", &err)) << err;
  ASSERT_TRUE(j.RecordSysfsValue(kReadAhead, &err)) << err;
  Put("sys/block/sdz/queue/read_ahead_kb", "4096\n");
  std::vector<std::string> log;
  EXPECT_FALSE(j.RestoreAll(&log, &err));
  EXPECT_EQ(err, "1 of 2 restore steps failed (first: write " + kReadAhead +
                     ": Device or resource busy); journal kept in " + JournalPath());
  EXPECT_EQ(Get(kSched), "none [mq-deadline] kyber bfq");  // kept going past the failure
  ASSERT_EQ(j.entries().size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(testing::ReadFileOrEmpty(JournalPath()))["entries"].size(), 1u);
  *fail = false;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(Get(kReadAhead), "128");
  EXPECT_FALSE(fs::exists(JournalPath()));
}

TEST_F(RestoreJournalTest, JournalFileAlwaysParses) {
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  std::atomic<bool> done{false};
  std::atomic<int> parsed{0};
  std::atomic<int> torn{0};
  std::thread reader([&] {
    while (!done) {
      std::string text = testing::ReadFileOrEmpty(JournalPath());
      if (text.empty()) continue;  // not created yet
      bool ok = !nlohmann::json::parse(text, nullptr, false).is_discarded();
      (ok ? parsed : torn)++;
    }
  });
  for (int i = 0; i < 300 && err.empty(); ++i) {
    if (!j.Record(JournalEntry::File(dir_ + "/f" + std::to_string(i)), &err)) break;
  }
  done = true;
  reader.join();
  EXPECT_EQ(err, "");
  EXPECT_EQ(torn.load(), 0);
  EXPECT_GT(parsed.load(), 0);
  for (const auto& entry : fs::directory_iterator(state_)) {
    std::string name = entry.path().filename();
    EXPECT_TRUE(name == "journal.json" || name == "lock") << "stray file " << name;
  }
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;  // the files never existed: all gone already
  EXPECT_EQ(log.size(), 300u);
}

TEST_F(RestoreJournalTest, LockKeepsRunsApart) {
  std::string err;
  auto first = std::make_unique<RestoreJournal>(sysfs_);
  ASSERT_TRUE(first->Open(state_, "first", &err)) << err;
  RestoreJournal second(sysfs_);
  const std::string busy = "another elevbench run (pid " + std::to_string(getpid()) + ") is active";
  EXPECT_FALSE(second.Open(state_, "second", &err));
  EXPECT_EQ(err, busy);
  std::vector<std::string> log;
  EXPECT_FALSE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_));
  EXPECT_EQ(err, busy);
  first.reset();
  ASSERT_TRUE(second.Open(state_, "second", &err)) << err;
  EXPECT_FALSE(second.Open(state_, "again", &err));
}

TEST_F(RestoreJournalTest, LeftoverBlocksOpenUntilRestored) {
  {
    RestoreJournal j(sysfs_);
    std::string err;
    ASSERT_TRUE(j.Open(state_, "crashed", &err)) << err;
    RecordAndChange(&j);
  }
  RestoreJournal next(sysfs_);
  std::string err;
  EXPECT_FALSE(next.Open(state_, "next", &err));
  EXPECT_EQ(err, JournalPath() + " holds changes of an earlier run (pid " +
                     std::to_string(getpid()) + "); run `elevbench restore` first");
  std::vector<std::string> log;
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_)) << err;
  ASSERT_TRUE(next.Open(state_, "next", &err)) << err;
}

TEST_F(RestoreJournalTest, LiveOwnerIsNotRestoredOver) {
  pid_t owner = SpawnSleeper(false);
  uint64_t start = 0;
  std::string comm;
  std::string err;
  ASSERT_TRUE(ReadProcessIdentity(owner, &start, &comm, &err)) << err;
  fs::create_directories(state_);
  nlohmann::json j = {{"schema_version", 1},
                      {"owner_pid", owner},
                      {"owner_start_time", start},
                      {"sysfs_root", sysfs_.root()},
                      {"entries", nlohmann::json::array()}};
  std::ofstream(JournalPath()) << j.dump();
  std::vector<std::string> log;
  EXPECT_FALSE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_));
  EXPECT_EQ(err, "another elevbench run (pid " + std::to_string(owner) + ") is active");
  kill(owner, SIGKILL);
  {
    int reaped_status = 0;
    (void)ReapChildWithin(owner, 60, &reaped_status);
  }
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_)) << err;
  EXPECT_FALSE(fs::exists(JournalPath()));
}

TEST_F(RestoreJournalTest, RefusesJournalOfAnotherRootAndGarbage) {
  {
    RestoreJournal j(sysfs_);
    std::string err;
    ASSERT_TRUE(j.Open(state_, "fake", &err)) << err;
    ASSERT_TRUE(j.RecordSysfsValue(kSched, &err)) << err;
  }
  std::vector<std::string> log;
  std::string err;
  EXPECT_FALSE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, Sysfs("/")));
  EXPECT_NE(err.find("was recorded for sysfs root " + sysfs_.root()), std::string::npos) << err;
  std::ofstream(JournalPath()) << "{\"entries\": [";
  EXPECT_FALSE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_));
  EXPECT_EQ(err, JournalPath() + " is not valid JSON; inspect it and remove it by hand");
}

TEST_F(RestoreJournalTest, RejectsUnsafeEntries) {
  RestoreJournal j(sysfs_);
  std::string err;
  EXPECT_FALSE(j.Record(JournalEntry::File("/tmp/x"), &err));
  EXPECT_EQ(err, "restore journal is not open");
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  EXPECT_FALSE(j.Record(JournalEntry::SysfsValue("/etc/passwd", "x"), &err));
  EXPECT_EQ(err, "invalid sysfs_value entry '/etc/passwd'");
  EXPECT_FALSE(j.Record(JournalEntry::LoopDevice("/dev/sda", "/x.img"), &err));
  EXPECT_FALSE(j.Record(JournalEntry::Directory("/tmp/../etc"), &err));
  EXPECT_FALSE(j.Record(JournalEntry::Mount("/"), &err));
  EXPECT_FALSE(j.Record(JournalEntry::Process(1, 5, "init"), &err));
  EXPECT_FALSE(j.RecordProcess(999999999, &err));
  EXPECT_TRUE(j.entries().empty());
}

TEST_F(RestoreJournalTest, FilesDirectoriesAndForget) {
  std::string d = dir_ + "/work";
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  ASSERT_TRUE(j.Record(JournalEntry::Directory(d), &err)) << err;
  fs::create_directory(d);
  ASSERT_TRUE(j.Record(JournalEntry::File(d + "/data"), &err)) << err;
  std::ofstream(d + "/data") << "x";
  ASSERT_TRUE(j.Record(JournalEntry::File(d + "/gone"), &err)) << err;
  ASSERT_TRUE(j.Forget(JournalEntry::File(d + "/gone"), &err)) << err;
  EXPECT_EQ(j.entries().size(), 2u);
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log, (std::vector<std::string>{"removed " + d + "/data", "removed directory " + d}));
  EXPECT_FALSE(fs::exists(d));
}

TEST_F(RestoreJournalTest, TempDirIsJournaledBeforeItIsMade) {
  std::string base = dir_ + "/base";
  fs::create_directory(base);
  RestoreJournal closed(sysfs_);
  std::string path, err;
  // A journal that cannot record: no directory may appear (it would be left unjournaled).
  EXPECT_FALSE(MakeJournaledTempDir(base, &closed, &path, &err));
  EXPECT_TRUE(fs::is_empty(base));

  RestoreJournal j(sysfs_);
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  ASSERT_TRUE(MakeJournaledTempDir(base, &j, &path, &err)) << err;
  EXPECT_EQ(path.rfind(base + "/elevbench-", 0), 0u) << path;
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all, fs::perms::owner_all);
  ASSERT_EQ(j.entries().size(), 1u);
  EXPECT_TRUE(j.entries()[0].SameResource(JournalEntry::Directory(path)));
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_TRUE(fs::is_empty(base));
}

TEST_F(RestoreJournalTest, LoopEntriesLeaveOtherDevicesAlone) {
  // Only the fake sysfs is consulted: neither check reaches /dev/loop7.
  Put("sys/block/loop7/loop/backing_file", "/srv/someone-else.img\n");
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  ASSERT_TRUE(j.Record(JournalEntry::LoopDevice("/dev/loop7", "/tmp/mine.img"), &err)) << err;
  ASSERT_TRUE(j.Record(JournalEntry::LoopDevice("/dev/loop6", "/tmp/mine.img"), &err)) << err;
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log, (std::vector<std::string>{
                     "/dev/loop6 is already detached",
                     "/dev/loop7 now backs /srv/someone-else.img, not ours; left alone"}));
}

TEST_F(RestoreJournalTest, DriverTagsAndCreatedLoopEntriesSurviveACrash) {
  Put("sys/block/loop9/queue/scheduler", "[none] mq-deadline kyber bfq \n");
  Put("sys/block/loop9/queue/nr_requests", "128\n");
  Put("sys/kernel/debug/block/loop9/hctx0/tags", "nr_tags=128\n\nbitmap_tags:\ndepth=128\n");
  {
    RestoreJournal j(sysfs_);
    std::string err;
    ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
    ASSERT_TRUE(j.Record(JournalEntry::LoopCreated("/dev/loop9", "/tmp/mine.img"), &err)) << err;
    ASSERT_TRUE(j.RecordDriverTags("loop9", &err)) << err;
    ASSERT_TRUE(j.RecordDriverTags("loop9", &err)) << err;  // save-once
    EXPECT_FALSE(j.RecordDriverTags("loop8", &err));        // no debugfs file: cannot journal
    EXPECT_NE(err.find("cannot read the driver tags of loop8"), std::string::npos) << err;
    ASSERT_EQ(j.entries().size(), 2u);
    EXPECT_EQ(j.entries()[1].original, "128");
  }
  const nlohmann::json file = nlohmann::json::parse(testing::ReadFileOrEmpty(JournalPath()));
  EXPECT_EQ(file["entries"][0], (nlohmann::json{{"kind", "loop_created"},
                                                {"device", "/dev/loop9"},
                                                {"backing_file", "/tmp/mine.img"}}));
  EXPECT_EQ(file["entries"][1], (nlohmann::json{{"kind", "driver_tags"},
                                                {"path", "/sys/block/loop9/queue/nr_requests"},
                                                {"original", "128"}}));
  std::vector<std::string> log;
  std::string err;
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_)) << err;
  EXPECT_EQ(log, (std::vector<std::string>{log.front(), "driver tags of loop9 already 128",
                                           "/dev/loop9: not removed under a fake sysfs root"}));
}

TEST_F(RestoreJournalTest, RejectsUnsafeDriverTagsAndLoopEntries) {
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  EXPECT_FALSE(j.Record(JournalEntry::DriverTags("../sda", 4), &err));
  EXPECT_FALSE(j.Record(JournalEntry::DriverTags("loop1/queue", 4), &err));
  JournalEntry bad = JournalEntry::DriverTags("loop1", 4);
  bad.original = "four";
  EXPECT_FALSE(j.Record(bad, &err));
  EXPECT_FALSE(j.Record(JournalEntry::LoopCreated("/dev/sda", "/x.img"), &err));
  EXPECT_FALSE(j.Record(JournalEntry::LoopCreated("/dev/loop1", "relative.img"), &err));
  EXPECT_TRUE(j.entries().empty());
}

// A cgroup the run made round-trips through the journal file and goes after a crash, but only
// an "elevbench-*" directory under /sys/fs/cgroup/ is ever accepted.
TEST_F(RestoreJournalTest, CgroupEntrySurvivesACrashAndIsRemoved) {
  const std::string cgroup = "/sys/fs/cgroup/memory/user/elevbench-machine-12";
  Put("sys/fs/cgroup/memory/user/cgroup.procs", "");
  Put("sys/fs/cgroup/memory/user/elevbench-machine-12/cgroup.procs", "");
  {
    RestoreJournal j(sysfs_);
    std::string err;
    ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
    ASSERT_TRUE(j.Record(JournalEntry::Cgroup(cgroup), &err)) << err;
    ASSERT_TRUE(j.Record(JournalEntry::Cgroup(cgroup), &err)) << err;  // save-once
    EXPECT_EQ(j.entries().size(), 1u);
  }
  const nlohmann::json file = nlohmann::json::parse(testing::ReadFileOrEmpty(JournalPath()));
  EXPECT_EQ(file["entries"][0], (nlohmann::json{{"kind", "cgroup"}, {"path", cgroup}}));
  JournalContents contents;
  std::string err;
  ASSERT_TRUE(
      ParseJournal(testing::ReadFileOrEmpty(JournalPath()), "journal.json", &contents, &err))
      << err;
  ASSERT_EQ(contents.entries.size(), 1u);
  EXPECT_EQ(contents.entries[0].kind, JournalEntryKind::kCgroup);
  EXPECT_TRUE(contents.entries[0].SameResource(JournalEntry::Cgroup(cgroup)));
  std::vector<std::string> log;
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state_, &log, &err, sysfs_)) << err;
  EXPECT_EQ(log.back(), "removed cgroup " + cgroup);
  EXPECT_FALSE(fs::exists(root_ + cgroup));
  EXPECT_TRUE(fs::exists(root_ + "/sys/fs/cgroup/memory/user"));
  EXPECT_FALSE(fs::exists(JournalPath()));
}

TEST_F(RestoreJournalTest, RejectsCgroupsElevbenchDidNotName) {
  RestoreJournal j(sysfs_);
  std::string err;
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  for (const char* bad :
       {"/sys/fs/cgroup/memory", "/sys/fs/cgroup/memory/user.slice", "/sys/fs/cgroup",
        "/sys/fs/cgroup/", "/tmp/elevbench-x", "/sys/fs/cgroupx/elevbench-x",
        "/sys/fs/cgroup/memory/elevbench-", "/sys/fs/cgroup/memory/elevbench-x/",
        "/sys/fs/cgroup/memory/../elevbench-x", "/sys/fs/cgroup//elevbench-x",
        "/sys/fs/cgroup/memory/elevbench-a b", "/sys/block/elevbench-x"}) {
    EXPECT_FALSE(j.Record(JournalEntry::Cgroup(bad), &err)) << bad;
    EXPECT_EQ(err, std::string("invalid cgroup entry '") + bad + "'");
  }
  EXPECT_TRUE(j.entries().empty());
  for (const char* good :
       {"/sys/fs/cgroup/elevbench-machine-1", "/sys/fs/cgroup/memory/a/b/elevbench-test-1-2"}) {
    EXPECT_TRUE(j.Record(JournalEntry::Cgroup(good), &err)) << good << ": " << err;
  }
  ASSERT_TRUE(j.Forget(JournalEntry::Cgroup("/sys/fs/cgroup/elevbench-machine-1"), &err));
  ASSERT_TRUE(j.Forget(JournalEntry::Cgroup("/sys/fs/cgroup/memory/a/b/elevbench-test-1-2"), &err));
}

TEST_F(RestoreJournalTest, ProcessesAreTerminatedOnlyIfStillTheSame) {
  pid_t polite = SpawnSleeper(false);
  pid_t stubborn = SpawnSleeper(true);
  pid_t innocent = SpawnSleeper(false);
  uint64_t start = 0;
  std::string comm;
  std::string err;
  ASSERT_TRUE(ReadProcessIdentity(innocent, &start, &comm, &err)) << err;
  RestoreJournal j(sysfs_);
  j.set_process_grace(std::chrono::milliseconds(200));
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  ASSERT_TRUE(j.RecordProcess(polite, &err)) << err;
  ASSERT_TRUE(j.RecordProcess(stubborn, &err)) << err;
  // Same pid, other start time: the pid was reused by a process that is not ours.
  ASSERT_TRUE(j.Record(JournalEntry::Process(innocent, start + 1, "sleep"), &err)) << err;
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], "process " + std::to_string(innocent) + " (sleep) already exited");
  EXPECT_EQ(log[1], "killed process " + std::to_string(stubborn) + " (sleep) (ignored SIGTERM)");
  EXPECT_EQ(log[2], "terminated process " + std::to_string(polite) + " (sleep)");
  EXPECT_EQ(kill(innocent, 0), 0);
  kill(innocent, SIGKILL);
  {
    int reaped_status = 0;
    (void)ReapChildWithin(innocent, 60, &reaped_status);
  }
}

TEST(DefaultStateDirTest, EnvironmentOverrides) {
  const char* old = getenv("ELEVBENCH_STATE_DIR");
  std::string saved = old ? old : "";
  setenv("ELEVBENCH_STATE_DIR", "/tmp/elevbench-custom", 1);
  EXPECT_EQ(DefaultStateDir(), "/tmp/elevbench-custom");
  unsetenv("ELEVBENCH_STATE_DIR");
  if (geteuid() == 0) {
    EXPECT_EQ(DefaultStateDir(), "/var/lib/elevbench");
  }
  if (old) setenv("ELEVBENCH_STATE_DIR", saved.c_str(), 1);
}

TEST(RestoreJournalRootTest, LoopDeviceThroughEverySchedulerAndBack) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to create a loop device: uid " << geteuid();
  if (access("/dev/loop-control", F_OK) != 0) {
    GTEST_SKIP() << "needs root to create a loop device: no /dev/loop-control";
  }
  std::string dir = MakeTempDir("loop");
  ASSERT_FALSE(dir.empty());
  std::string image = dir + "/disk.img";
  { std::ofstream(image).close(); }
  fs::resize_file(image, 16 << 20);
  Sysfs live;
  std::string vda_before;
  std::string err;
  bool have_vda = live.Read("/sys/block/vda/queue/scheduler", &vda_before, &err);

  RestoreJournal j(live);
  ASSERT_TRUE(j.Open(dir + "/state", "root integration test", &err)) << err;
  struct Cleanup {  // detaches and removes everything even when an ASSERT bails out
    RestoreJournal* journal;
    std::string dir;
    ~Cleanup() {
      std::vector<std::string> log;
      std::string e;
      if (!journal->entries().empty()) (void)journal->RestoreAll(&log, &e);
      fs::remove_all(dir);
    }
  } cleanup{&j, dir};
  // A loop device of its own (created, then removed by the journal), as elevbench's own targets
  // are: attaching a free loop0..7 of the machine would leave the queue settings that attaching
  // and switching change (rotational, read_ahead_kb, write_cache, discard) on a device the test
  // does not own.
  std::string device;
  ASSERT_TRUE(AttachLoopDevice(image, &j, &device, &err)) << err;
  std::string sched = "/sys/block/" + device.substr(5) + "/queue/scheduler";
  std::string line;
  std::vector<std::string> available;
  std::string original;
  ASSERT_TRUE(live.Read(sched, &line, &err)) << err;
  ASSERT_TRUE(ParseSchedulerLine(line, &available, &original, &err)) << err;
  ASSERT_TRUE(j.RecordSysfsValue(sched, &err)) << err;
  std::string last;
  for (const std::string& name : available) {
    EXPECT_TRUE(live.WriteVerified(sched, name, &err)) << err;
    last = name;
  }
  if (last == original && available.size() > 1) {
    EXPECT_TRUE(live.WriteVerified(sched, available.front(), &err)) << err;
  }
  std::vector<std::string> log;
  EXPECT_TRUE(j.RestoreAll(&log, &err)) << err;
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], "restored " + sched + " to '" + original + "'");
  EXPECT_EQ(log[1], "detached " + device + " (" + image + ")");
  EXPECT_EQ(log[2], "removed loop device " + device);
  EXPECT_FALSE(fs::exists("/sys/block/" + device.substr(5))) << device << " is still there";
  if (have_vda) {
    std::string vda_after;
    ASSERT_TRUE(live.Read("/sys/block/vda/queue/scheduler", &vda_after, &err)) << err;
    EXPECT_EQ(vda_after, vda_before);
  }
}

TEST(RestoreJournalRootTest, MountIsUnmounted) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to mount: uid " << geteuid();
  std::string dir = MakeTempDir("mount");
  ASSERT_FALSE(dir.empty());
  std::string mnt = dir + "/mnt";
  fs::create_directory(mnt);
  RestoreJournal j{Sysfs()};
  std::string err;
  ASSERT_TRUE(j.Open(dir + "/state", "mount test", &err)) << err;
  ASSERT_TRUE(j.Record(JournalEntry::Mount(mnt), &err)) << err;
  ASSERT_EQ(mount("elevbench-test", mnt.c_str(), "tmpfs", 0, "size=1m"), 0) << strerror(errno);
  std::vector<std::string> log;
  EXPECT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log, std::vector<std::string>{"unmounted " + mnt});
  EXPECT_EQ(umount2(mnt.c_str(), 0), -1);  // nothing left mounted there
  fs::remove_all(dir);
}

// The pure reader behind ApplyLeftoverJournal (and the journal's fuzz target): it reads and
// checks, and nothing on the machine is touched.
TEST(ParseJournalTest, ReadsEntriesWithoutActing) {
  const std::string text = R"({"schema_version": 1, "tool": "elevbench", "owner": "run",
    "owner_pid": 4242, "owner_start_time": 99, "sysfs_root": "/",
    "entries": [
      {"kind": "sysfs_value", "path": "/sys/block/sdz/queue/scheduler", "original": "bfq"},
      {"kind": "loop_created", "device": "/dev/loop8", "backing_file": "/var/tmp/x.img"},
      {"kind": "process", "pid": 4243, "start_time": 100, "comm": "elevbench"},
      {"kind": "cgroup", "path": "/sys/fs/cgroup/memory/elevbench-machine-4242"}]})";
  JournalContents contents;
  std::string err;
  ASSERT_TRUE(ParseJournal(text, "journal.json", &contents, &err)) << err;
  EXPECT_EQ(contents.owner_pid, 4242);
  EXPECT_EQ(contents.owner_start_time, 99u);
  EXPECT_EQ(contents.sysfs_root, "/");
  ASSERT_EQ(contents.entries.size(), 4u);
  EXPECT_EQ(contents.entries[3].kind, JournalEntryKind::kCgroup);
  EXPECT_EQ(contents.entries[3].path, "/sys/fs/cgroup/memory/elevbench-machine-4242");
  EXPECT_EQ(contents.entries[0].kind, JournalEntryKind::kSysfsValue);
  EXPECT_EQ(contents.entries[0].original, "bfq");
  EXPECT_EQ(contents.entries[1].backing_file, "/var/tmp/x.img");
  EXPECT_EQ(contents.entries[2].pid, 4243);
}

TEST(ParseJournalTest, RefusesWhatRecordWouldRefuse) {
  JournalContents contents;
  std::string err;
  EXPECT_FALSE(ParseJournal(R"({"schema_version": 1, "owner_pid": 7, "sysfs_root": "/",
      "entries": [{"kind": "sysfs_value", "path": "/etc/passwd", "original": "x"}]})",
                            "j.json", &contents, &err));
  EXPECT_EQ(err, "j.json: invalid sysfs_value entry '/etc/passwd'");
  EXPECT_FALSE(ParseJournal(R"({"schema_version": 1, "owner_pid": 7, "sysfs_root": "/",
      "entries": [{"kind": "cgroup", "path": "/sys/fs/cgroup/memory/user.slice"}]})",
                            "j.json", &contents, &err));
  EXPECT_EQ(err, "j.json: invalid cgroup entry '/sys/fs/cgroup/memory/user.slice'");
  EXPECT_FALSE(ParseJournal("{\"entries\": [", "j.json", &contents, &err));
  EXPECT_EQ(err, "j.json is not valid JSON; inspect it and remove it by hand");
}

// restore_journal_fuzz found these: a number that is not an integer of the field's range (1e56
// as schema_version) was converted by nlohmann's get<int>, which is undefined behaviour.
TEST(ParseJournalTest, NumbersOutOfTheirFieldsRangeAreRefused) {
  JournalContents contents;
  std::string err;
  EXPECT_FALSE(ParseJournal(R"({"schema_version": 1e56, "owner_pid": 7, "sysfs_root": "/",
      "entries": []})",
                            "j.json", &contents, &err));
  EXPECT_EQ(err, "j.json has an unknown schema_version");
  EXPECT_FALSE(ParseJournal(R"({"schema_version": 1, "owner_pid": 1e56, "sysfs_root": "/",
      "entries": []})",
                            "j.json", &contents, &err));
  EXPECT_EQ(err, "j.json: owner_pid: expected an integer");
  EXPECT_FALSE(ParseJournal(R"({"schema_version": 1, "owner_pid": 7, "owner_start_time": -1,
      "sysfs_root": "/", "entries": []})",
                            "j.json", &contents, &err));
  EXPECT_EQ(err, "j.json: owner_start_time: expected a non-negative integer");
  EXPECT_FALSE(ParseJournal(R"({"schema_version": 1, "owner_pid": 7, "sysfs_root": "/",
      "entries": [{"kind": "process", "pid": 4.5e300, "start_time": 1}]})",
                            "j.json", &contents, &err));
  EXPECT_EQ(err, "j.json: bad journal entry: pid: expected an integer");
}

// A tracefs instance entry names only an "elevbench-<digits>" directory under an instances/
// directory, so a damaged journal cannot make restore remove someone else's instance.
TEST(ParseJournalTest, TracefsInstancesOnlyOurOwn) {
  JournalContents contents;
  std::string err;
  ASSERT_TRUE(ParseJournal(R"({"schema_version": 1, "owner_pid": 7, "sysfs_root": "/",
      "entries": [{"kind": "tracefs_instance",
                   "path": "/sys/kernel/tracing/instances/elevbench-42"}]})",
                           "j.json", &contents, &err))
      << err;
  ASSERT_EQ(contents.entries.size(), 1u);
  EXPECT_EQ(contents.entries[0].kind, JournalEntryKind::kTracefsInstance);
  // A bio capture beside the request tracer (run replay's own account) has its own instance.
  ASSERT_TRUE(ParseJournal(R"({"schema_version": 1, "owner_pid": 7, "sysfs_root": "/",
      "entries": [{"kind": "tracefs_instance",
                   "path": "/sys/kernel/tracing/instances/elevbench-42-bios"}]})",
                           "j.json", &contents, &err))
      << err;
  for (const char* path : {"/sys/kernel/tracing/instances/perf", "/sys/kernel/tracing",
                           "/sys/kernel/tracing/instances/elevbench-", "/instances/elevbench-1x",
                           "/sys/kernel/tracing/instances/elevbench-1/../x",
                           "/sys/kernel/tracing/instances/elevbench-1-perf",
                           "/sys/kernel/tracing/instances/elevbench-1-2-bios"}) {
    const std::string text = std::string(R"({"schema_version": 1, "owner_pid": 7,
        "sysfs_root": "/", "entries": [{"kind": "tracefs_instance", "path": ")") +
                             path + "\"}]}";
    EXPECT_FALSE(ParseJournal(text, "j.json", &contents, &err)) << path;
  }
}

TEST(ParseJournalTest, AFuseConnectionKeepsItsDaemonAndNumber) {
  JournalContents contents;
  std::string err;
  ASSERT_TRUE(ParseJournal(R"({"schema_version": 1, "owner_pid": 7, "sysfs_root": "/",
      "entries": [{"kind": "fuse_connection", "path": "/var/tmp/elevbench-a1/fuse",
                   "connection": "45", "pid": 4243, "start_time": 99, "comm": "elevbench"}]})",
                           "j.json", &contents, &err))
      << err;
  ASSERT_EQ(contents.entries.size(), 1u);
  const JournalEntry& e = contents.entries[0];
  EXPECT_EQ(e.kind, JournalEntryKind::kFuseConnection);
  EXPECT_EQ(e.path, "/var/tmp/elevbench-a1/fuse");
  EXPECT_EQ(e.original, "45");
  EXPECT_EQ(e.pid, 4243);
  EXPECT_EQ(e.start_time, 99u);
  for (const char* bad : {R"("connection": "4x", "pid": 4243, "start_time": 99)",
                          R"("connection": "45", "pid": 1, "start_time": 99)",
                          R"("connection": "45", "pid": 4243, "start_time": 0)",
                          R"("connection": "", "pid": 4243, "start_time": 99)"}) {
    const std::string text = std::string(R"({"schema_version": 1, "owner_pid": 7,
        "sysfs_root": "/", "entries": [{"kind": "fuse_connection", "path": "/f", )") +
                             bad + "}]}";
    EXPECT_FALSE(ParseJournal(text, "j.json", &contents, &err)) << bad;
  }
}

// A restore's first lines are about the FUSE daemons: one whose filesystem is gone is said so
// and left alone, and its entry is done in its turn.
TEST_F(RestoreJournalTest, AFuseConnectionWhoseMountIsGoneIsCheckedFirstAndDone) {
  std::string err;
  RestoreJournal j(sysfs_);
  ASSERT_TRUE(j.Open(state_, "run", &err)) << err;
  const std::string file = dir_ + "/f";
  { std::ofstream(file) << "x"; }
  ASSERT_TRUE(j.Record(JournalEntry::File(file), &err)) << err;
  ASSERT_TRUE(j.Record(JournalEntry::FuseConnection(dir_ + "/fuse", 45, getpid(), 1, "t"), &err))
      << err;
  std::vector<std::string> log;
  ASSERT_TRUE(j.RestoreAll(&log, &err)) << err;
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], "FUSE connection 45 of " + dir_ + "/fuse is gone");
  EXPECT_EQ(log[1], "FUSE connection 45 of " + dir_ + "/fuse: its daemon goes next");
  EXPECT_EQ(log[2], "removed " + file);
}

// Undo removes the instance directory (on a fake tree: an empty directory with tracing_on) and
// counts an instance that is already gone as done.
TEST(TracefsJournalTest, RemovesATracefsInstance) {
  const testing::ScopedTempDir tmp;
  const std::string instance = "/sys/kernel/tracing/instances/elevbench-77";
  fs::create_directories(tmp.path() + instance);
  Sysfs sysfs(tmp.path());
  RestoreJournal journal(sysfs);
  std::string err;
  ASSERT_TRUE(journal.Open(tmp.path() + "/state", "test", &err)) << err;
  ASSERT_TRUE(journal.Record(JournalEntry::TracefsInstance(instance), &err)) << err;
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_FALSE(fs::exists(tmp.path() + instance));
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0], "removed tracefs instance " + instance);
  ASSERT_TRUE(journal.Record(JournalEntry::TracefsInstance(instance), &err)) << err;
  log.clear();
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log.at(0), "tracefs instance " + instance + " is already removed");
}

}  // namespace
}  // namespace elevbench
