// The cgroups of `--machine`: layout detection, the CPU choice, creation with its limits,
// entering, leaving and the journal's removal — on a fake tree like /sys/fs/cgroup (v1 and v2),
// and, as root (MachineCgroupRootTest.*), on this kernel's real v1 hierarchies.

#include "harness/machine/machine_cgroups.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fakes.h"
#include "harness/core/strings.h"
#include "harness/process/bounded_call.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

MachineSpec Spec(const std::string& text) {
  MachineSpec spec;
  std::string err;
  EXPECT_TRUE(ParseMachineSpec(text, &spec, &err)) << err;
  return spec;
}

TEST(CpuListTest, ParsesTheKernelsFormat) {
  std::vector<int> cpus;
  ASSERT_TRUE(ParseCpuList("0-3,8,10-11\n", &cpus));
  EXPECT_EQ(cpus, (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  ASSERT_TRUE(ParseCpuList("1", &cpus));
  EXPECT_EQ(cpus, (std::vector<int>{1}));
  for (const char* bad : {"x", "1-", "-1", "3-1", "1,,2", "1 2"}) {
    EXPECT_FALSE(ParseCpuList(bad, &cpus)) << bad;
  }
}

TEST(CpuListTest, ChoosesTheHighestCpusAndLeavesCpuZero) {
  std::string chosen, err;
  ASSERT_TRUE(ChooseCpus("0-3", 1, &chosen, &err)) << err;
  EXPECT_EQ(chosen, "3");
  ASSERT_TRUE(ChooseCpus("0-3", 2, &chosen, &err)) << err;
  EXPECT_EQ(chosen, "2-3");
  ASSERT_TRUE(ChooseCpus("0,2,4-5", 3, &chosen, &err)) << err;
  EXPECT_EQ(chosen, "2,4-5");
  ASSERT_TRUE(ChooseCpus("0-1", 2, &chosen, &err)) << err;
  EXPECT_EQ(chosen, "0-1");
  EXPECT_FALSE(ChooseCpus("0-1", 3, &chosen, &err));
  EXPECT_NE(err.find("only 2 CPU(s)"), std::string::npos) << err;
}

class FakeCgroupTest : public ::testing::Test {
 protected:
  Sysfs FakeSysfs() {
    Sysfs sysfs(root_);
    sysfs.set_write_hook(testing::FakeCgroupWriteHook());
    return sysfs;
  }
  std::string Fake(const std::string& system_path) { return root_ + system_path; }
  std::string Value(const std::string& system_path) {
    return TrimWhitespace(testing::ReadFileOrEmpty(Fake(system_path)));
  }
  void OpenJournal(RestoreJournal* journal) {
    std::string err;
    ASSERT_TRUE(journal->Open(temp_.path() + "/state", "machine test", &err)) << err;
  }

  testing::ScopedTempDir temp_;
  const std::string root_ = temp_.path() + "/root";
};

TEST_F(FakeCgroupTest, V1IsNestedInTheCgroupsThisProcessIsIn) {
  const std::string self = testing::MakeFakeCgroupTree(root_, 1);
  CgroupLayout layout;
  std::string err;
  ASSERT_TRUE(DetectCgroupLayout(FakeSysfs(), self, &layout, &err)) << err;
  EXPECT_EQ(layout.version, 1);
  EXPECT_EQ(layout.memory_parent, "/sys/fs/cgroup/memory/outer");
  EXPECT_EQ(layout.memory_origin, "/sys/fs/cgroup/memory/outer");
  EXPECT_EQ(layout.cpuset_parent, "/sys/fs/cgroup/cpuset");
  // A cgroup this process is said to be in must exist.
  EXPECT_FALSE(DetectCgroupLayout(FakeSysfs(), "4:memory:/gone\n3:cpuset:/\n", &layout, &err));
  EXPECT_NE(err.find("/sys/fs/cgroup/memory/gone is not there"), std::string::npos) << err;
}

TEST_F(FakeCgroupTest, V2WhereItOffersBothControllersAndOnlyIfEnabled) {
  const std::string self = testing::MakeFakeCgroupTree(root_, 2);
  CgroupLayout layout;
  std::string err;
  ASSERT_TRUE(DetectCgroupLayout(FakeSysfs(), self, &layout, &err)) << err;
  EXPECT_EQ(layout.version, 2);
  EXPECT_EQ(layout.memory_parent, "/sys/fs/cgroup");
  EXPECT_EQ(layout.memory_origin, "/sys/fs/cgroup/user.slice");
  std::ofstream(Fake("/sys/fs/cgroup/cgroup.subtree_control")) << "pids\n";
  EXPECT_FALSE(DetectCgroupLayout(FakeSysfs(), self, &layout, &err));
  EXPECT_NE(err.find("echo +memory +cpuset"), std::string::npos) << err;
}

TEST_F(FakeCgroupTest, NeitherHierarchyIsAOneLineError) {
  fs::create_directories(Fake("/sys/fs/cgroup"));
  CgroupLayout layout;
  std::string err;
  EXPECT_FALSE(DetectCgroupLayout(FakeSysfs(), "0::/\n", &layout, &err));
  EXPECT_NE(err.find("needs the memory and cpuset cgroup controllers"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos);
}

TEST_F(FakeCgroupTest, V1CreateEnterLeaveAndTheJournalRemovesThem) {
  const std::string self = testing::MakeFakeCgroupTree(root_, 1);
  CgroupLayout layout;
  std::string err;
  ASSERT_TRUE(DetectCgroupLayout(FakeSysfs(), self, &layout, &err)) << err;
  RestoreJournal journal(FakeSysfs());
  OpenJournal(&journal);
  const std::string memory = "/sys/fs/cgroup/memory/outer/elevbench-machine-9";
  const std::string cpuset = "/sys/fs/cgroup/cpuset/elevbench-machine-9";
  {
    MachineCgroups cgroups(FakeSysfs(), testing::FakeCgroupMkdir());
    ASSERT_TRUE(cgroups.Create(Spec("p4-2003"), layout, "elevbench-machine-9", &journal, &err))
        << err;
    EXPECT_EQ(cgroups.paths(), (std::vector<std::string>{memory, cpuset}));
    EXPECT_EQ(Value(memory + "/memory.limit_in_bytes"), "268435456");
    EXPECT_EQ(Value(memory + "/memory.memsw.limit_in_bytes"), "268435456");  // no swap
    EXPECT_EQ(Value(cpuset + "/cpuset.cpus"), "3");
    EXPECT_EQ(Value(cpuset + "/cpuset.mems"), "0");  // v1 needs them to take a task
    ASSERT_EQ(journal.entries().size(), 2u);
    EXPECT_EQ(journal.entries()[0].kind, JournalEntryKind::kCgroup);
    EXPECT_EQ(journal.entries()[0].path, memory);

    const nlohmann::json d = cgroups.Describe(Spec("p4-2003"));
    EXPECT_EQ(d["profile"], "p4-2003");
    EXPECT_EQ(d["memory_bytes"], 268435456u);
    EXPECT_EQ(d["cpus"], 1);
    EXPECT_EQ(d["cpuset_cpus"], "3");
    EXPECT_EQ(d["cgroup_version"], 1);
    EXPECT_EQ(d["cgroups"], nlohmann::json({memory, cpuset}));

    ASSERT_TRUE(cgroups.Enter(4242, &err)) << err;
    EXPECT_EQ(Value(memory + "/cgroup.procs"), "4242");
    EXPECT_EQ(Value(cpuset + "/cgroup.procs"), "4242");
    EXPECT_EQ(Value("/sys/fs/cgroup/memory/outer/cgroup.procs"), "");
    ASSERT_TRUE(cgroups.Leave(&err)) << err;
    EXPECT_EQ(Value("/sys/fs/cgroup/memory/outer/cgroup.procs"), "4242");  // back where it was
    EXPECT_EQ(Value("/sys/fs/cgroup/cpuset/cgroup.procs"), "4242");
    EXPECT_EQ(Value(memory + "/cgroup.procs"), "");
  }
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log,
            (std::vector<std::string>{"removed cgroup " + cpuset, "removed cgroup " + memory}));
  EXPECT_FALSE(fs::exists(Fake(memory)));
  EXPECT_FALSE(fs::exists(Fake(cpuset)));
}

// A run killed inside its cgroups leaves tasks there: restore moves them to the parent first.
TEST_F(FakeCgroupTest, TasksLeftInsideGoToTheParentBeforeTheCgroupIsRemoved) {
  const std::string self = testing::MakeFakeCgroupTree(root_, 1);
  CgroupLayout layout;
  std::string err;
  ASSERT_TRUE(DetectCgroupLayout(FakeSysfs(), self, &layout, &err)) << err;
  const std::string state = temp_.path() + "/state";
  {
    RestoreJournal journal(FakeSysfs());
    OpenJournal(&journal);
    MachineCgroups cgroups(FakeSysfs(), testing::FakeCgroupMkdir());
    ASSERT_TRUE(cgroups.Create(Spec("ram=128M"), layout, "elevbench-machine-7", &journal, &err));
    EXPECT_EQ(cgroups.paths().size(), 1u);  // no cpuset: cpus not limited
    ASSERT_TRUE(cgroups.Enter(4242, &err)) << err;
    // A child of the run (pid 4343) is still inside; the run dies without RestoreAll, so the
    // journal file stays behind (the destructor only moves the run's own pid back).
    std::ofstream(Fake(cgroups.paths()[0] + "/cgroup.procs"), std::ios::app) << "4343\n";
  }
  std::vector<std::string> log;
  ASSERT_TRUE(RestoreJournal::ApplyLeftoverJournal(state, &log, &err, FakeSysfs())) << err;
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1],
            "removed cgroup /sys/fs/cgroup/memory/outer/elevbench-machine-7 (moved 1 "
            "task(s) to the parent)");
  EXPECT_EQ(Value("/sys/fs/cgroup/memory/outer/cgroup.procs"), "4242\n4343");
  EXPECT_FALSE(fs::exists(Fake("/sys/fs/cgroup/memory/outer/elevbench-machine-7")));
}

TEST_F(FakeCgroupTest, V2OneCgroupWithMemoryMaxNoSwapAndCpus) {
  const std::string self = testing::MakeFakeCgroupTree(root_, 2, "0-7");
  CgroupLayout layout;
  std::string err;
  ASSERT_TRUE(DetectCgroupLayout(FakeSysfs(), self, &layout, &err)) << err;
  RestoreJournal journal(FakeSysfs());
  OpenJournal(&journal);
  MachineCgroups cgroups(FakeSysfs(), testing::FakeCgroupMkdir());
  ASSERT_TRUE(cgroups.Create(Spec("ram=1G,cpus=2"), layout, "elevbench-machine-3", &journal, &err))
      << err;
  const std::string dir = "/sys/fs/cgroup/elevbench-machine-3";
  EXPECT_EQ(cgroups.paths(), std::vector<std::string>{dir});
  EXPECT_EQ(Value(dir + "/memory.max"), "1073741824");
  EXPECT_EQ(Value(dir + "/memory.swap.max"), "0");
  EXPECT_EQ(Value(dir + "/cpuset.cpus"), "6-7");
  ASSERT_TRUE(cgroups.Enter(4242, &err)) << err;
  EXPECT_EQ(Value(dir + "/cgroup.procs"), "4242");
  ASSERT_TRUE(cgroups.Leave(&err)) << err;
  EXPECT_EQ(Value("/sys/fs/cgroup/user.slice/cgroup.procs"), "4242");
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_FALSE(fs::exists(Fake(dir)));
}

TEST_F(FakeCgroupTest, RefusesANameRestoreWouldNotRemove) {
  const std::string self = testing::MakeFakeCgroupTree(root_, 1);
  CgroupLayout layout;
  std::string err;
  ASSERT_TRUE(DetectCgroupLayout(FakeSysfs(), self, &layout, &err)) << err;
  RestoreJournal journal(FakeSysfs());
  OpenJournal(&journal);
  MachineCgroups cgroups(FakeSysfs(), testing::FakeCgroupMkdir());
  EXPECT_FALSE(cgroups.Create(Spec("p4-2003"), layout, "bench", &journal, &err));
  EXPECT_TRUE(journal.entries().empty());
  EXPECT_TRUE(cgroups.paths().empty());
}

// ---- Root: the real cgroups of this kernel (v1 here), with a child inside them.

// Everything a root test made goes, on every path: the child is killed and the journal restored.
class RealCgroups {
 public:
  RealCgroups() : journal_() {}
  ~RealCgroups() {
    if (child_ > 0) {
      kill(child_, SIGKILL);
      {
        int reaped_status = 0;
        (void)ReapChildWithin(child_, 60, &reaped_status);
      }
    }
    std::vector<std::string> log;
    std::string err;
    if (journal_.is_open()) {
      EXPECT_TRUE(journal_.RestoreAll(&log, &err)) << err;
    }
    for (const std::string& p : made_) EXPECT_FALSE(fs::exists(p)) << p << " left behind";
  }
  RestoreJournal journal_;
  MachineCgroups cgroups_;
  pid_t child_ = -1;
  std::vector<std::string> made_;
};

std::string ReadProcSelfCgroup() { return testing::ReadFileOrEmpty("/proc/self/cgroup"); }

// The skip message says why; null when the test can run.
const char* RootSkipReason(CgroupLayout* layout, std::string* err) {
  if (geteuid() != 0) return "needs root to create cgroups";
  if (!DetectCgroupLayout(Sysfs(), ReadProcSelfCgroup(), layout, err)) return "no usable cgroups";
  return nullptr;
}

// A child that waits for a byte on `go`, then writes its /proc/self/cgroup and its CPU affinity
// to `report` and waits to be killed.
pid_t SpawnReporter(int go, int report) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  char byte;
  if (read(go, &byte, 1) != 1) _exit(1);
  std::string text = testing::ReadFileOrEmpty("/proc/self/cgroup");
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  text += "affinity:";
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) text += " " + std::to_string(c);
  }
  text += "\n";
  if (write(report, text.data(), text.size()) < 0) _exit(1);
  close(report);
  pause();
  _exit(0);
}

TEST(MachineCgroupRootTest, AChildRunsInsideTheLimitsAndNothingIsLeft) {
  CgroupLayout layout;
  std::string err;
  if (const char* why = RootSkipReason(&layout, &err)) GTEST_SKIP() << why << " " << err;
  testing::ScopedTempDir temp;
  const std::string name = "elevbench-test-" + std::to_string(getpid()) + "-1";
  {
    RealCgroups real;
    ASSERT_TRUE(real.journal_.Open(temp.path() + "/state", "MachineCgroupRootTest", &err)) << err;
    const bool created = real.cgroups_.Create(Spec("p4-2003"), layout, name, &real.journal_, &err);
    real.made_ = real.cgroups_.paths();
    ASSERT_TRUE(created) << err;
    ASSERT_EQ(real.made_.size(), layout.version == 1 ? 2u : 1u);
    const std::string memory = real.made_.front();
    const std::string cpuset = real.made_.back();
    if (layout.version == 1) {
      EXPECT_EQ(TrimWhitespace(testing::ReadFileOrEmpty(memory + "/memory.limit_in_bytes")),
                "268435456");
      EXPECT_EQ(TrimWhitespace(testing::ReadFileOrEmpty(cpuset + "/cpuset.cpus")),
                real.cgroups_.cpuset_cpus());
    } else {
      EXPECT_EQ(TrimWhitespace(testing::ReadFileOrEmpty(memory + "/memory.max")), "268435456");
    }
    const int last_cpu = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)) - 1;
    EXPECT_EQ(real.cgroups_.cpuset_cpus(), std::to_string(last_cpu));

    int go[2], report[2];
    ASSERT_EQ(pipe(go), 0);
    ASSERT_EQ(pipe(report), 0);
    real.child_ = SpawnReporter(go[0], report[1]);
    close(go[0]);
    close(report[1]);
    ASSERT_GT(real.child_, 0);
    ASSERT_TRUE(real.cgroups_.Enter(real.child_, &err)) << err;
    ASSERT_EQ(write(go[1], "x", 1), 1);
    std::string text;
    char buf[512];
    for (ssize_t n; (n = read(report[0], buf, sizeof buf)) > 0;) text.append(buf, n);
    close(go[1]);
    close(report[0]);
    if (layout.version == 1) {
      EXPECT_NE(text.find(":memory:" + memory.substr(21) + "\n"), std::string::npos) << text;
      EXPECT_NE(text.find(":cpuset:" + cpuset.substr(21) + "\n"), std::string::npos) << text;
    } else {
      EXPECT_NE(text.find("0::/" + name + "\n"), std::string::npos) << text;
    }
    EXPECT_NE(text.find("affinity: " + std::to_string(last_cpu) + "\n"), std::string::npos) << text;
    // The child is still inside when restore runs, as after a SIGKILL of the run: restore moves
    // it to the parent and removes the cgroups all the same (RealCgroups' destructor checks).
    std::vector<std::string> log;
    ASSERT_TRUE(real.journal_.RestoreAll(&log, &err)) << err;
    ASSERT_FALSE(log.empty());
    EXPECT_NE(log.back().find("(moved 1 task(s) to the parent)"), std::string::npos) << log.back();
    const std::string now =
        testing::ReadFileOrEmpty("/proc/" + std::to_string(real.child_) + "/cgroup");
    EXPECT_EQ(now.find(name), std::string::npos) << now;
  }
}

TEST(MachineCgroupRootTest, TheMemoryLimitBindsWithoutSwap) {
  CgroupLayout layout;
  std::string err;
  if (const char* why = RootSkipReason(&layout, &err)) GTEST_SKIP() << why << " " << err;
  testing::ScopedTempDir temp;
  RealCgroups real;
  ASSERT_TRUE(real.journal_.Open(temp.path() + "/state", "MachineCgroupRootTest", &err)) << err;
  const std::string name = "elevbench-test-" + std::to_string(getpid()) + "-2";
  const bool created = real.cgroups_.Create(Spec("ram=64M"), layout, name, &real.journal_, &err);
  real.made_ = real.cgroups_.paths();
  ASSERT_TRUE(created) << err;
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  pid_t child = fork();
  if (child == 0) {
    char byte;
    if (read(go[0], &byte, 1) != 1) _exit(1);
    // 160 MB of anonymous memory, touched: more than the limit, and there is no swap to go to.
    constexpr size_t kBytes = 160u << 20;
    // Touched page by page through a volatile pointer, so the compiler cannot drop the writes.
    volatile char* p = static_cast<volatile char*>(malloc(kBytes));
    if (p == nullptr) _exit(2);
    for (size_t i = 0; i < kBytes; i += 4096) p[i] = 1;
    _exit(p[kBytes - 4096] == 1 ? 0 : 3);
  }
  close(go[0]);
  ASSERT_GT(child, 0);
  real.child_ = child;
  ASSERT_TRUE(real.cgroups_.Enter(child, &err)) << err;
  ASSERT_EQ(write(go[1], "x", 1), 1);
  close(go[1]);
  int status = 0;
  ASSERT_TRUE(ReapChildWithin(child, 300, &status))
      << "pid " << child << " still running after 300 s";
  real.child_ = -1;
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the child exited " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1)
      << " instead of being killed by the 64 MB limit";
}

}  // namespace
}  // namespace elevbench
