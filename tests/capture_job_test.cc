// The capture job's checks before anything is made, and its trace's source
// (harness/run/capture_job.h); the capture itself runs as root in CaptureReplayRootTest.

#include "harness/run/capture_job.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace elevbench {
namespace {

// Check's error for `config`, which must be refused.
std::string CaptureCheckError(const CaptureJobConfig& config) {
  CaptureJob job(config, [](const std::string&) {});
  std::string err;
  EXPECT_FALSE(job.Check(&err));
  return err;
}

TEST(CaptureJobTest, UsageErrorsComeBeforeAnythingIsMade) {
  testing::ScopedTempDir dir;
  CaptureJobConfig c;
  c.out = dir.path() + "/t.trace";
  EXPECT_EQ(CaptureCheckError(c), "give one of --device, --emulated or --scratch");
  c.target.device = "sda";
  c.target.emulated = "ide-2003";
  // #45, fourth pass: as `run` says it.
  EXPECT_EQ(CaptureCheckError(c), "--device and --emulated are alternatives: give one");
  c.target.scratch = "1G";
  EXPECT_EQ(CaptureCheckError(c), "--device, --emulated and --scratch are alternatives: give one");
  c.target.scratch.clear();
  c.target.device.clear();
  EXPECT_EQ(CaptureCheckError(c),
            "a capture on a device elevbench makes traces a command: add -- COMMAND ARGS");
  c.command = {"elevbench-no-such-command"};
  EXPECT_EQ(CaptureCheckError(c), "command not found: elevbench-no-such-command");
  c.command = {"true"};
  c.target.fs = "btrfs";
  EXPECT_EQ(CaptureCheckError(c), "unsupported --fs 'btrfs' (ext2, ext4 or xfs)");
  c.out = dir.path();  // #45, fourth pass: a folder as --out passed to the root check
  EXPECT_EQ(CaptureCheckError(c), "--out " + dir.path() +
                                      " is a directory; give a file name such as " + dir.path() +
                                      "/capture.trace");
  c.out = "/nonexistent/t.trace";
  EXPECT_EQ(CaptureCheckError(c), "--out /nonexistent/t.trace: cannot write in /nonexistent");
  c = CaptureJobConfig{};
  c.target.device = "sda";
  c.out = dir.path() + "/t.trace";
  EXPECT_EQ(CaptureCheckError(c), "--device needs --duration SECONDS or -- COMMAND ARGS");
  c.command = {"true"};
  c.fs_given = true;  // #45, fourth pass: --fs with --device passed over in silence
  EXPECT_EQ(CaptureCheckError(c),
            "--fs applies to a device elevbench makes (--emulated, --scratch), not to --device");
  c.fs_given = false;
  c.setup = "touch f";
  EXPECT_EQ(CaptureCheckError(c),
            "--setup needs a target elevbench makes (--emulated or --scratch): --device is only "
            "observed");
}

TEST(CaptureJobTest, TheSourceNamesTheDiskAndTheCommand) {
  CaptureJobConfig c;
  c.target.device = "sdb";
  c.duration = 5;
  EXPECT_EQ(CaptureSourceOf(c), "device sdb");
  c = CaptureJobConfig{};
  c.target.emulated = "ide-2003";
  c.command = {"tar", "-xf", "src.tar"};
  EXPECT_EQ(CaptureSourceOf(c), "emulated ide-2003, ext4: tar -xf src.tar");
  c.target.emulated.clear();
  c.target.scratch = "1G";
  c.target.fs = "xfs";
  EXPECT_EQ(CaptureSourceOf(c), "scratch 1G, xfs: tar -xf src.tar");
  c.setup = "cp /src/linux.tar src.tar";
  EXPECT_EQ(CaptureSourceOf(c),
            "scratch 1G, xfs: tar -xf src.tar (set-up: cp /src/linux.tar src.tar)");
}

TEST(CaptureJobTest, TheOutcomeSaysWhatWasCapturedAndAFailedCommandFailsIt) {
  CaptureJobConfig c;
  c.command = {"tar", "-xf", "src.tar"};
  c.out = "t.trace";
  CaptureOutcome outcome;
  outcome.summary.records = 951;
  outcome.summary.duration_seconds = 0.5;
  std::vector<std::string> notes;
  EXPECT_TRUE(DescribeCaptureOutcome(c, outcome, &notes));
  EXPECT_EQ(notes, std::vector<std::string>{"captured 951 bios from 0 processes in 0.500000 s "
                                            "into t.trace"});
  outcome.command_exit_code = 2;
  outcome.command_stderr_tail = "tar: src.tar: Cannot open";
  notes.clear();
  EXPECT_FALSE(DescribeCaptureOutcome(c, outcome, &notes));
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0], "tar exited with status 2: tar: src.tar: Cannot open");
  outcome = CaptureOutcome{};
  outcome.lost_events = 3;
  notes.clear();
  EXPECT_FALSE(DescribeCaptureOutcome(c, outcome, &notes)) << "a trace with lost events fails";
  EXPECT_EQ(notes.back(),
            "captured 0 bios from 0 processes in 0.000000 s into t.trace (3 events lost)");
}

}  // namespace
}  // namespace elevbench
