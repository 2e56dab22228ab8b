// `capture`, `trace show`, `run replay` and `run fio` as a user meets them: bad input gets one
// line and exit 2 before anything is created.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/device/block_device.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

void WriteCliFixture(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

// Some whole disk of this machine (whatever it is called), for --device checks that only read
// its size.
std::string AnyDisk() {
  for (const auto& e : fs::directory_iterator("/sys/block")) return e.path().filename();
  return "";
}

TEST(CaptureReplayCliTest, BadInputIsOneLineAndExit2AndNothingIsCreated) {
  testing::ScopedTempDir temp;
  const std::string dir = temp.path(), out = dir + "/r.json", trace = dir + "/t.trace";
  const std::string small = testing::TestDataPath("fixtures/trace/small.trace");
  WriteCliFixture(dir + "/truncated.trace", testing::ReadTestFile(small).substr(0, 3000));
  WriteCliFixture(dir + "/outside.fio", "[a]\nrw=read\nfilename=/etc/passwd\n");
  WriteCliFixture(dir + "/sideways.fio", "[a]\nrw=sideways\nsize=1m\n");
  const std::string disk = AnyDisk();
  const struct {
    std::vector<std::string> args;
    const char* needle;
  } kCases[] = {
      {{"trace", "show", "/etc/passwd"}, "not an elevbench block trace"},
      {{"trace", "show", dir + "/truncated.trace"}, "truncated"},
      {{"trace", "show", dir + "/none.trace"}, "none.trace"},
      {{"capture", "--out", trace}, "one of --device, --emulated or --scratch"},
      {{"capture", "--emulated", "ide-2003", "--out", trace}, "-- COMMAND"},
      {{"capture", "--device", "nosuchdisk", "--duration", "1", "--out", trace}, "no such disk"},
      {{"capture", "--device", disk, "--out", trace}, "--duration"},
      {{"capture", "--emulated", "ide-2003", "--out", trace, "--", "/no/such/program"},
       "command not found"},
      {{"capture", "--emulated", "ide-2003", "--out", "/no/such/dir/t.trace", "--", "true"},
       "cannot write"},
      {{"run", "replay", "--trace", "/etc/passwd", "--scratch", "1G", "--out", out},
       "not an elevbench block trace"},
      {{"run", "replay", "--trace", dir + "/truncated.trace", "--scratch", "1G", "--out", out},
       "truncated"},
      {{"run", "replay", "--trace", small, "--dir", dir, "--out", out}, "not a directory"},
      {{"run", "replay", "--trace", small, "--scratch", "64M", "--out", out},
       "does not fit on the 64 MiB device of --scratch; give a larger device or a shorter trace"},
      {{"run", "replay", "--trace", small, "--device", disk, "--out", out}, "--allow-writes"},
      {{"run", "replay", "--trace", small, "--speed", "0", "--scratch", "1G", "--out", out},
       "--speed"},
      {{"run", "replay", "--trace", small, "--replayer", "sideways", "--scratch", "1G", "--out",
        out},
       "--replayer"},
      // #45: --no-stall keeps no time for --speed to scale; refused in the suite's Prepare,
      // before the suite's target checks (replay's own root check included). Each target here
      // is refused by those too, so that without the check nothing runs either.
      {{"run", "replay", "--trace", small, "--no-stall", "--speed", "2", "--scratch", "64M",
        "--out", out},
       "--speed scales the recorded waits, which --no-stall drops"},
      {{"run", "replay", "--trace", small, "--speed", "2", "--replayer", "fio", "--no-stall",
        "--device", disk, "--out", out},
       "--speed scales the recorded waits, which --no-stall drops"},
      {{"run", "fio", dir + "/outside.fio", "--scratch", "1G", "--out", out},
       "outside the target (the filesystem elevbench makes for the run)"},
      {{"run", "fio", dir + "/sideways.fio", "--scratch", "1G", "--out", out}, "fio rejects it"},
      {{"run", "fio", dir + "/missing.fio", "--scratch", "1G", "--out", out}, "missing.fio"},
      {{"run", "fio", dir + "/outside.fio", "--fio-set", "exec_prerun=x", "--out", out},
       "exec_prerun"},
  };
  for (const auto& c : kCases) {
    std::string line;
    for (const std::string& a : c.args) line += a + " ";
    SCOPED_TRACE(line);
    const ProcessResult r = testing::RunElevbenchCli(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1)
        << "one line: " << r.error_output;
    EXPECT_NE(r.error_output.find(c.needle), std::string::npos) << r.error_output;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(trace));
  }
}

// `capture --device DISK --out FILE` with FILE on DISK: refused with one line and exit 2 before
// the root check, so this runs as anyone. The disk is the one under a directory of /var/tmp
// (skipped when that is on no block device, e.g. tmpfs). The refusal is confirmed in-process
// first: a capture is never started here, not even when the check is broken.
TEST(CaptureReplayCliTest, CaptureRefusesAnOutOnTheTracedDisk) {
  testing::ScopedTempDir temp("/var/tmp");
  std::vector<std::string> disks;
  std::string err;
  if (!ResolveQueueDevices(temp.path(), SystemPaths{}, &disks, &err) || disks.empty()) {
    GTEST_SKIP() << "/var/tmp is on no disk whose queue can be named: " << err;
  }
  const std::string trace = temp.path() + "/t.trace";
  bool on = false;
  ASSERT_TRUE(PathIsOnDisk(temp.path(), disks.front(), SystemPaths{}, &on, &err)) << err;
  ASSERT_TRUE(on) << temp.path() << " on " << disks.front();
  for (const std::string& device : {disks.front(), "/dev/" + disks.front()}) {
    SCOPED_TRACE(device);
    const ProcessResult r = testing::RunElevbenchCli(
        {"capture", "--device", device, "--duration", "1", "--out", trace});
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1)
        << "one line: " << r.error_output;
    EXPECT_NE(r.error_output.find("--out " + trace + " is on " + disks.front() +
                                  ", the disk --device traces"),
              std::string::npos)
        << r.error_output;
    EXPECT_FALSE(fs::exists(trace));
    EXPECT_FALSE(fs::exists(trace + ".raw"));
  }
}

}  // namespace
}  // namespace elevbench
