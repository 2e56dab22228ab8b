// Without root, a comparison run must say so in one line and run on the current scheduler only:
// no switching, no queue changes, no scratch device, and still a complete result. A root test
// (ctest -L root) all the same: it runs real fio on /var/tmp's disk, as nobody when it is root.

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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
        std::string("--dir"), temp.path(), std::string("--schedulers"), std::string("all"),
        std::string("--queue"), std::string("read_ahead_kb=64"), std::string("--size"),
        std::string("8"), std::string("--threads"), std::string("1"), std::string("--random"),
        std::string("100"), std::string("--out"), temp.path() + "/r.json",
        std::string("--no-history")}) {
    argv.push_back(a);
  }
  ProcessResult r;
  std::string err;
  ProcessOptions opts;
  opts.timeout_seconds = 300;
  ASSERT_TRUE(RunProcess(argv, opts, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 0) << r.error_output;
  EXPECT_NE(r.error_output.find("not root: running on the current scheduler only"),
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

}  // namespace
}  // namespace elevbench
