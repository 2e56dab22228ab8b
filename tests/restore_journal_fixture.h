#pragma once
// What the restore journal's tests (restore_journal*_test.cc) share: a fake sysfs tree with a
// state directory beside it (RestoreJournalTest), temporary directories and a sleeper to journal.

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fakes.h"
#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"
#include "test_util.h"

namespace elevbench::testing {

/// A fresh directory "/tmp/elevbench_<tag>_XXXXXX" that the caller removes, or "" when it cannot
/// be made.
inline std::string MakeTempDir(const char* tag) {
  std::string tmpl = std::string("/tmp/elevbench_") + tag + "_XXXXXX";
  return mkdtemp(tmpl.data()) ? tmpl : "";
}

/// Forks a child that runs `sleep 30`, optionally ignoring SIGTERM first.
inline pid_t SpawnSleeper(bool ignore_term) {
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

/// A fake sysfs tree (a queue of "sdz" with a scheduler, read-ahead and an iosched tunable, and
/// vm.dirty_bytes) under a temporary directory, with a state directory for the journal beside
/// it; writes go through the fake kernel's hook (fakes.h).
class RestoreJournalTest : public ::testing::Test {
 protected:
  // Paths of the fake tree's queue attributes, as the system names them.
  static inline const std::string kSched = "/sys/block/sdz/queue/scheduler";
  static inline const std::string kReadAhead = "/sys/block/sdz/queue/read_ahead_kb";
  static inline const std::string kReadExpire = "/sys/block/sdz/queue/iosched/read_expire";

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
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Put(const std::string& rel, const std::string& content) {
    std::filesystem::create_directories(std::filesystem::path(root_ + "/" + rel).parent_path());
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

}  // namespace elevbench::testing
