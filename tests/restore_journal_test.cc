// The restore journal (harness/device/restore_journal.h) on a fake sysfs tree: recording sysfs
// values and restoring them after a run or a crash, in a working order and idempotently; the
// journal file; the lock and the owner that keep runs apart; refused journals and entries; the
// default state directory. The other entry kinds are in restore_journal_entries_test.cc, the
// pure reader in restore_journal_parse_test.cc, the root tests in restore_journal_root_test.cc.

#include "harness/device/restore_journal.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "fakes.h"
#include "harness/process/bounded_call.h"
#include "restore_journal_fixture.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

using testing::RestoreJournalTest;
using testing::SpawnSleeper;

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

}  // namespace
}  // namespace elevbench
