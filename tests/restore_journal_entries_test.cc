// The restore journal's entries besides sysfs values (harness/device/restore_journal.h): files
// and directories, loop devices and driver tags, cgroups, processes, FUSE connections and
// tracefs instances, each recorded, restored after a crash, and refused when it is not
// elevbench's own.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fakes.h"
#include "harness/device/restore_journal.h"
#include "harness/device/scratch_device.h"
#include "harness/process/bounded_call.h"
#include "restore_journal_fixture.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

using testing::RestoreJournalTest;
using testing::SpawnSleeper;

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
