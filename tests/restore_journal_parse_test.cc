// ParseJournal (harness/device/restore_journal.h), the pure reader behind ApplyLeftoverJournal
// and the journal's fuzz target: what it accepts, and the entries and numbers it refuses.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/device/restore_journal.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

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

}  // namespace
}  // namespace elevbench
