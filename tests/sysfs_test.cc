#include "harness/device/sysfs.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fakes.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

class SysfsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/elevbench_sysfs_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    Put("sys/block/sdz/queue/scheduler", "none [mq-deadline] kyber bfq \n");
    Put("sys/block/sdz/queue/read_ahead_kb", "128\n");
    Put("proc/sys/vm/dirty_bytes", "0\n");
  }
  void TearDown() override { fs::remove_all(root_); }

  void Put(const std::string& rel, const std::string& content) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel) << content;
  }
  std::string Get(const std::string& rel) {
    std::ifstream in(root_ + "/" + rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  std::string root_;
  const std::string sched_ = "/sys/block/sdz/queue/scheduler";
};

TEST(ParseSchedulerLineTest, BracketedCurrent) {
  std::vector<std::string> available;
  std::string current;
  std::string err;
  ASSERT_TRUE(ParseSchedulerLine("none [mq-deadline] kyber bfq \n", &available, &current, &err));
  EXPECT_EQ(available, (std::vector<std::string>{"none", "mq-deadline", "kyber", "bfq"}));
  EXPECT_EQ(current, "mq-deadline");
  ASSERT_TRUE(ParseSchedulerLine("[none] bfq", &available, &current, &err));
  EXPECT_EQ(current, "none");
}

TEST(ParseSchedulerLineTest, BareNoneMeansNoElevator) {
  std::vector<std::string> available;
  std::string current = "stale";
  std::string err;
  ASSERT_TRUE(ParseSchedulerLine("none\n", &available, &current, &err));
  EXPECT_EQ(available, std::vector<std::string>{"none"});
  EXPECT_EQ(current, "");
}

TEST(ParseSchedulerLineTest, RejectsMalformed) {
  std::vector<std::string> available;
  std::string current;
  std::string err;
  EXPECT_FALSE(ParseSchedulerLine("", &available, &current, &err));
  EXPECT_EQ(err, "empty scheduler line");
  EXPECT_FALSE(ParseSchedulerLine("[none] [bfq]", &available, &current, &err));
  EXPECT_NE(err.find("two current"), std::string::npos);
  EXPECT_FALSE(ParseSchedulerLine("none [bfq", &available, &current, &err));
  EXPECT_FALSE(ParseSchedulerLine("none [] bfq", &available, &current, &err));
  EXPECT_FALSE(ParseSchedulerLine("no[n]e", &available, &current, &err));
}

TEST_F(SysfsTest, MapsSystemPathsUnderRoot) {
  Sysfs sysfs(root_);
  EXPECT_EQ(sysfs.Map("/sys/block/sdz"), root_ + "/sys/block/sdz");
  EXPECT_EQ(Sysfs().Map("/sys/block/vda"), "/sys/block/vda");
  EXPECT_EQ(Sysfs(root_ + "/").root(), root_ + "/");
}

TEST_F(SysfsTest, ReadTrims) {
  Sysfs sysfs(root_);
  std::string value;
  std::string err;
  ASSERT_TRUE(sysfs.Read(sched_, &value, &err)) << err;
  EXPECT_EQ(value, "none [mq-deadline] kyber bfq");
  EXPECT_FALSE(sysfs.Read("/sys/block/sdz/queue/nope", &value, &err));
  EXPECT_EQ(errno, ENOENT);
  EXPECT_EQ(err, "read /sys/block/sdz/queue/nope: No such file or directory");
}

TEST_F(SysfsTest, WriteRefusesOtherPlacesAndNeverCreates) {
  Sysfs sysfs(root_);
  std::string err;
  EXPECT_FALSE(sysfs.Write("/etc/passwd", "x", &err));
  EXPECT_NE(err.find("not under /sys/"), std::string::npos);
  EXPECT_FALSE(sysfs.Write("/sys/../etc/passwd", "x", &err));
  EXPECT_FALSE(sysfs.Write("/sys/block/sdz/queue/typo", "1", &err));
  EXPECT_FALSE(fs::exists(root_ + "/sys/block/sdz/queue/typo"));
  EXPECT_FALSE(sysfs.Write("/sys/block/sdz/queue/read_ahead_kb", "1\n2", &err));
  ASSERT_TRUE(sysfs.Write("/proc/sys/vm/dirty_bytes", "50331648", &err)) << err;
  EXPECT_EQ(Get("proc/sys/vm/dirty_bytes"), "50331648");
}

TEST_F(SysfsTest, WriteVerifiedSchedulerWithKernelLikeFake) {
  Sysfs sysfs(root_);
  sysfs.set_write_hook(testing::MakeFakeKernelWriteHook());
  std::string err;
  ASSERT_TRUE(sysfs.WriteVerified(sched_, "bfq", &err)) << err;
  EXPECT_EQ(Get("sys/block/sdz/queue/scheduler"), "none mq-deadline kyber [bfq] \n");
  EXPECT_FALSE(sysfs.WriteVerified(sched_, "cfq", &err));
  EXPECT_EQ(err, "write " + sched_ + ": Invalid argument");
  EXPECT_EQ(Get("sys/block/sdz/queue/scheduler"), "none mq-deadline kyber [bfq] \n");
}

TEST_F(SysfsTest, WriteThatDoesNotTakeIsAnError) {
  // The kernel accepted the write but the queue kept its old elevator (fio's "none" case).
  Sysfs sysfs(root_);
  sysfs.set_write_hook(
      [](const std::string&, const std::string&, std::string_view, std::string*) { return true; });
  std::string err;
  EXPECT_FALSE(sysfs.WriteVerified(sched_, "bfq", &err));
  EXPECT_EQ(err, sched_ + ": wrote 'bfq' but read back 'none [mq-deadline] kyber bfq'");
}

TEST_F(SysfsTest, PlainFileSchedulerReadsBackWithoutBrackets) {
  Sysfs sysfs(root_);  // no hook: the file now says "kyber", which names no current scheduler
  std::string err;
  EXPECT_FALSE(sysfs.WriteVerified(sched_, "kyber", &err));
  EXPECT_EQ(err, sched_ + ": wrote 'kyber' but read back 'kyber'");
}

TEST_F(SysfsTest, NumbersCompareNumerically) {
  Sysfs sysfs(root_);
  std::string err;
  const std::string ra = "/sys/block/sdz/queue/read_ahead_kb";
  EXPECT_TRUE(sysfs.WriteVerified(ra, "0256", &err)) << err;
  // A kernel that rounds to pages: 130 KiB reads back as 128.
  sysfs.set_write_hook(
      [](const std::string& mapped, const std::string& path, std::string_view v, std::string* e) {
        int kb = std::stoi(std::string(v)) / 4 * 4;
        return Sysfs::PlainWrite(mapped, path, std::to_string(kb) + "\n", e);
      });
  EXPECT_FALSE(sysfs.WriteVerified(ra, "130", &err));
  EXPECT_EQ(err, ra + ": wrote '130' but read back '128'");
  EXPECT_TRUE(sysfs.WriteVerified(ra, "128", &err)) << err;
}

TEST(SysfsValueMatchesTest, Rules) {
  EXPECT_TRUE(Sysfs::ValueMatches("/sys/block/a/queue/scheduler", "bfq", "none [bfq]"));
  EXPECT_FALSE(Sysfs::ValueMatches("/sys/block/a/queue/scheduler", "bfq", "[none] bfq"));
  EXPECT_FALSE(Sysfs::ValueMatches("/sys/block/a/queue/scheduler", "none", "none"));
  EXPECT_TRUE(Sysfs::ValueMatches("/proc/sys/vm/x", "+10", "10\n"));
  EXPECT_FALSE(Sysfs::ValueMatches("/proc/sys/vm/x", "10", "100"));
  EXPECT_TRUE(Sysfs::ValueMatches("/proc/sys/kernel/printk", "4 4 1 7", "4\t4\t1\t7"));
  EXPECT_FALSE(Sysfs::ValueMatches("/sys/x", "write back", "write through"));
  EXPECT_TRUE(Sysfs::IsSchedulerPath("/sys/block/nvme0n1/queue/scheduler"));
  EXPECT_FALSE(Sysfs::IsSchedulerPath("/sys/block/nvme0n1/queue/iosched/scheduler_x"));
}

}  // namespace
}  // namespace elevbench
