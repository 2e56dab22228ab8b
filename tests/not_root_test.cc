// Without root, a comparison run must say so in one line and run on the current scheduler only:
// no switching, no queue changes, no scratch device, and still a complete result. A root test
// (ctest -L root) all the same: it runs real fio on /var/tmp's disk, as nobody when it is root.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "harness/device/block_device.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

// The scheduler lines of the disks that hold `dir`, found the way the harness finds them (not
// by a fixed name: the machine's disk may be vda, sda, nvme0n1, ...).
std::vector<std::string> SchedulersUnder(const std::string& dir) {
  std::vector<std::string> disks, lines;
  std::string err;
  EXPECT_TRUE(ResolveQueueDevices(dir, SystemPaths{}, &disks, &err)) << err;
  for (const std::string& disk : disks) {
    std::ifstream in("/sys/block/" + disk + "/queue/scheduler");
    std::string line;
    std::getline(in, line);
    EXPECT_FALSE(line.empty()) << disk;
    lines.push_back(line);
  }
  return lines;
}

TEST(UnprivilegedRunRootTest, RunsOnTheCurrentSchedulerOnlyWithANotice) {
  if (!ProgramInPath("fio")) GTEST_SKIP() << "fio is not installed";
  testing::ScopedTempDir temp("/var/tmp");
  std::vector<std::string> argv;
  if (geteuid() == 0) {
    // Drop to nobody for the run; the directory must be theirs.
    if (!ProgramInPath("setpriv")) GTEST_SKIP() << "needs setpriv to run as an unprivileged user";
    ASSERT_EQ(chown(temp.path().c_str(), 65534, 65534), 0);
    argv = {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
  }
  const std::vector<std::string> before = SchedulersUnder(temp.path());
  ASSERT_FALSE(before.empty()) << "no disk found under " << temp.path();
  for (const std::string& a :
       {std::string(ELEVBENCH_BINARY), std::string("run"), std::string("tiobench"),
        std::string("--dir"), temp.path(), std::string("--size"), std::string("8"),
        std::string("--threads"), std::string("1"), std::string("--random"), std::string("100"),
        std::string("--out"), temp.path() + "/r.json", std::string("--no-history")}) {
    argv.push_back(a);
  }
  ProcessResult r;
  std::string err;
  ProcessOptions opts;
  opts.timeout_seconds = 300;
  ASSERT_TRUE(RunProcess(argv, opts, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 0) << r.error_output;
  // No --schedulers or --queue (refused without root, the next test): the current scheduler,
  // and a notice of what a run without root cannot do.
  EXPECT_NE(r.error_output.find("not root: caches are not dropped between cells"),
            std::string::npos)
      << r.error_output;
  std::ifstream in(temp.path() + "/r.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str(), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_TRUE(j["complete"].get<bool>());
  EXPECT_FALSE(j["context"]["root"].get<bool>());
  EXPECT_FALSE(j["context"]["switching"].get<bool>());
  EXPECT_TRUE(j["context"]["pinned_queue"].empty());
  EXPECT_EQ(j["records"].size(), 4u);
  EXPECT_EQ(j["identifiers"].size(), 1u);
  EXPECT_EQ(SchedulersUnder(temp.path()), before);
}

// Runs `elevbench ARGS` as nobody in `dir` (theirs), the way a user without root types it, with
// `guard_bin` first on PATH: its fio fails, so that a run the checks let through stops at step 1's
// `fio --version` instead of running (exit 1, and the test fails on it).
ProcessResult RunAsNobodyIn(const std::string& dir, const std::string& guard_bin,
                            const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"env",
                                   "PATH=" + guard_bin + ":/usr/sbin:/usr/bin:/sbin:/bin",
                                   "setpriv",
                                   "--reuid=65534",
                                   "--regid=65534",
                                   "--clear-groups",
                                   "--",
                                   ELEVBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult r;
  std::string err;
  ProcessOptions opts;
  opts.timeout_seconds = 60;
  opts.working_directory = dir;
  EXPECT_TRUE(RunProcess(argv, opts, &r, &err)) << err;
  return r;
}

// #45 third pass: without root, a device the user asked for cannot be made; the run must not go
// to the current directory's disk instead (it started a tiobench in the working directory). The
// refusal comes after the input's checks, so that a bad value is still named first.
TEST(UnprivilegedRunRootTest, ADeviceOrASwitchGivenWithoutRootIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to become nobody (setpriv)";
  if (!ProgramInPath("setpriv")) GTEST_SKIP() << "needs setpriv to run as an unprivileged user";
  testing::ScopedTempDir temp("/var/tmp");
  ASSERT_EQ(chown(temp.path().c_str(), 65534, 65534), 0);
  testing::ScopedTempDir guard;
  ASSERT_EQ(chmod(guard.path().c_str(), 0755), 0);
  std::ofstream(guard.path() + "/fio")
      << "#!/bin/sh\necho 'fio: this test runs none' >&2\nexit 1\n";
  ASSERT_EQ(chmod((guard.path() + "/fio").c_str(), 0755), 0);
  const struct {
    std::vector<std::string> args;
    std::string needle;
  } kCases[] = {
      {{"run", "tiobench", "--emulated", "ide-2003"},
       "--emulated needs root (the emulated disk is a loop device and a FUSE mount); without it, "
       "give --dir DIR"},
      {{"run", "tiobench", "--scratch", "1G", "--size", "64"},
       "--scratch needs root (the scratch disk is a loop device); without it, give --dir DIR"},
      {{"run", "nickbench", "--emulated", "ide-2003:1G", "--size", "64", "--schedulers", "none"},
       "--emulated needs root"},
      // Nor is a scheduler or a queue attribute switched: the run measured the current one
      // under the user's list (the fourth newcomer pass).
      {{"run", "tiobench", "--dir", ".", "--schedulers", "none,kyber", "--size", "1"},
       "--schedulers needs root (switching a disk's scheduler writes sysfs)"},
      {{"run", "tiobench", "--dir", ".", "--queue", "read_ahead_kb=16", "--size", "1"},
       "--queue needs root"},
      // A refusal of a flag the suite's defaults set says so (the fourth newcomer pass).
      {{"run", "post-2003", "--no-history", "--no-verdict"},
       "(post-2003 runs by default with --emulated"},
      // Bad input is named first, before the refusal.
      {{"run", "tiobench", "--emulated", "ide-2003:64G"}, "larger than the 40 GB disk"},
      {{"run", "tiobench", "--scratch", "512M", "--size", "1000"}, "does not fit"},
      {{"run", "tiobench", "--scratch", "1G", "--format", "nosuch"}, "unknown --format"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.args[1] + " " + c.args[2] + " " + c.args[3]);
    const ProcessResult r = RunAsNobodyIn(temp.path(), guard.path(), c.args);
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1)
        << "one line: " << r.error_output;
    EXPECT_NE(r.error_output.find(c.needle), std::string::npos) << r.error_output;
    EXPECT_TRUE(std::filesystem::is_empty(temp.path())) << "the refused run made something";
  }
}

}  // namespace
}  // namespace elevbench
