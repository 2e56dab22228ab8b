#include "harness/run/run_job.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/suites.h"
#include "harness/run/run_checks.h"
#include "harness/run/session_hooks.h"
#include "test_util.h"

namespace elevbench {
namespace {

// A run's config as the CLI makes it: the suite's object and plain facts of its row, here not
// tiobench's own, to show that the checks read the config and not the table of suites.
RunConfig PlainTiobenchConfig(Suite* suite) {
  RunConfig config;
  config.suite = suite;
  config.suite_name = "mysuite";
  config.formats = {"alpha", "beta"};
  config.lanes_refused = "it is a test";
  return config;
}

TEST(RunJobTest, AnUnknownFormatNamesTheFormatsOfTheConfig) {
  std::unique_ptr<Suite> suite = FindSuite("tiobench")->make();
  RunConfig config = PlainTiobenchConfig(suite.get());
  config.format = "nick";  // tiobench's, but not this config's
  CheckedRun checked;
  std::string err;
  EXPECT_FALSE(CheckRunConfig(config, ReadMachineInfo(), &checked, &err));
  EXPECT_EQ(err, "unknown --format 'nick' (alpha, beta, text, json)");
  // "text" is the suite's first layout, as report takes it (the fourth newcomer pass).
  config.format = "text";
  err.clear();
  const bool ok = CheckRunConfig(config, ReadMachineInfo(), &checked, &err);
  (void)ok;  // whatever else it says of this config, not its --format
  EXPECT_EQ(err.find("--format"), std::string::npos) << err;
}

// The fourth newcomer pass: README's `run post-2003` was refused on a kernel without bfq,
// which the suite's default list names. A default list loses what the kernel lacks, and the run
// says so; a list the user gave is refused whole.
TEST(RunJobTest, ASuitesDefaultSchedulersLoseWhatTheKernelLacksAndSaySo) {
  std::unique_ptr<Suite> suite = FindSuite("tiobench")->make();
  RunConfig config = PlainTiobenchConfig(suite.get());
  config.schedulers = "mq-deadline@DL,bfq:low_latency=0@AS,bfq@CF,none";
  config.offered_schedulers = {"none", "mq-deadline", "kyber"};
  config.schedulers_by_default = true;
  CheckedRun checked;
  std::string err;
  const bool ok = CheckRunConfig(config, ReadMachineInfo(), &checked, &err);
  (void)ok;  // whatever else it says of this config, not its schedulers
  EXPECT_EQ(err.find("--schedulers"), std::string::npos) << err;
  ASSERT_EQ(checked.configs.size(), 2u);
  EXPECT_EQ(checked.configs[0].scheduler, "mq-deadline");
  EXPECT_EQ(checked.configs[1].scheduler, "none");
  EXPECT_EQ(checked.schedulers_note,
            "elevbench: the suite's default --schedulers: this kernel has no bfq (it offers none, "
            "mq-deadline, kyber): AS, CF left out");
  config.schedulers_by_default = false;
  checked = CheckedRun{};
  EXPECT_FALSE(CheckRunConfig(config, ReadMachineInfo(), &checked, &err));
  EXPECT_EQ(err.rfind("--schedulers: this kernel has no scheduler 'bfq'", 0), 0u) << err;
}

// Issue 58 §3: contest's files follow the machine's RAM; at 24 GiB they need more than the 40 GB
// ide-2003 holds. As root the run emulates the 2003 box and says so; without root (no cgroups
// for it) one line names both ways out, not "a smaller PROFILE:SIZE" or "a larger device".
TEST(RunJobTest, ASuiteSizedByRamRunsAsThe2003BoxOnIde2003OrSaysHowTo) {
  std::unique_ptr<Suite> suite = FindSuite("contest")->make();
  RunConfig config;
  config.suite = suite.get();
  config.suite_name = "contest";
  config.target.emulated = "ide-2003";
  config.target.fs = "ext2";
  MachineInfo host = ReadMachineInfo();
  host.memory_bytes = 24ULL << 30;
  host.cpus = 2;
  CheckedRun checked;
  std::string err;
  const bool ok = CheckRunConfig(config, host, &checked, &err);
  EXPECT_EQ(err.find("a smaller PROFILE:SIZE"), std::string::npos) << err;
  EXPECT_EQ(err.find("give a larger device"), std::string::npos) << err;
  if (geteuid() == 0) {
    (void)ok;  // whatever else this machine refuses, not the disk's size
    EXPECT_EQ(checked.machine_spec.profile, "p4-2003");
    EXPECT_NE(checked.machine_note.find("running as the 2003 box (--machine p4-2003)"),
              std::string::npos)
        << checked.machine_note;
    EXPECT_EQ(err.find("more than the"), std::string::npos) << err;
  } else {
    EXPECT_FALSE(ok);
    EXPECT_NE(err.find("contest needs "), std::string::npos) << err;
    EXPECT_NE(err.find("more than the 40 GB disk --emulated ide-2003 emulates; give --machine "
                       "p4-2003 (the 2003 box) or ram=SIZE"),
              std::string::npos)
        << err;
  }
}

// Issue 57 §4.5: on a host without cgroup v2 (a v1 blkio layout, given), a bad value of a v2
// control is named, not hidden behind the host's cgroups; a good one is refused for the host.
TEST(RunJobTest, ControlsNameABadValueOnAHostWithoutCgroupV2) {
  std::unique_ptr<Suite> suite = FindSuite("probes")->make();
  RunConfig config = PlainTiobenchConfig(suite.get());
  IoCgroupLayout v1;
  v1.version = 1;
  v1.parent = "/sys/fs/cgroup/blkio";
  const std::pair<const char*, const char*> cases[] = {
      {"weight:probe=2000", "--controls: weight: bad weight '2000' (1 to 1000)"},
      {"iocost:model=foo", "--controls: iocost: bad model 'foo' (auto or measure)"},
      {"weight:probe=1000",
       "--controls: weight: needs cgroup v2's io controller, which this host lacks"},
  };
  for (const auto& [word, line] : cases) {
    config.controls = word;
    CheckedRun checked;
    std::string err;
    EXPECT_FALSE(CheckControlsOnHost(config, v1, /*io_cost_offered=*/false, &checked, &err));
    EXPECT_EQ(err, line);
  }
}

TEST(RunJobTest, LanesAreRefusedInTheConfigsWords) {
  std::unique_ptr<Suite> suite = FindSuite("tiobench")->make();
  RunConfig config = PlainTiobenchConfig(suite.get());
  config.lanes = "2";
  CheckedRun checked;
  std::string err;
  EXPECT_FALSE(CheckRunConfig(config, ReadMachineInfo(), &checked, &err));
  EXPECT_EQ(err, "--lanes 2: mysuite does not run in lanes: it is a test");
}

// A relative --out once gave a relative work directory: the journal refused the raw events file
// a cell's tracefs capture keeps there, and the replay's lag and `run command`'s bios went
// untraced without a word.
TEST(RunJobTest, TheWorkDirectoryIsAbsoluteForARelativeOut) {
  testing::ScopedTempDir dir;
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  std::unique_ptr<Suite> suite = FindSuite("tiobench")->make();
  RunConfig config = PlainTiobenchConfig(suite.get());
  config.out = "r.json";
  RunJob job(config, [](const std::string&) {});
  std::string err;
  const bool made = job.Check(&err) && job.MakeWorkDir(&err);
  std::filesystem::current_path(before);
  ASSERT_TRUE(made) << err;
  EXPECT_EQ(job.work_dir(), dir.path() + "/r.json.fio");
  EXPECT_TRUE(std::filesystem::is_directory(job.work_dir()));
}

// #45: a run refused after <out>.fio/ was made takes it back, with the default results/ if it
// made it (the one folder of --out a run makes), and leaves what was there before.
TEST(RunJobTest, ARefusedJobTakesBackItsWorkDirectory) {
  testing::ScopedTempDir dir;
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  std::unique_ptr<Suite> suite = FindSuite("tiobench")->make();
  RunConfig config = PlainTiobenchConfig(suite.get());
  config.out = "results/r.json";
  {
    RunJob job(config, [](const std::string&) {});
    std::string err;
    ASSERT_TRUE(job.Check(&err) && job.MakeWorkDir(&err)) << err;
    EXPECT_TRUE(std::filesystem::is_directory(dir.path() + "/results/r.json.fio"));
    job.TakeBackWorkDir();
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  // A directory that was there stays; one that is not empty stays.
  std::filesystem::create_directories(dir.path() + "/results");
  {
    RunJob job(config, [](const std::string&) {});
    std::string err;
    ASSERT_TRUE(job.Check(&err) && job.MakeWorkDir(&err)) << err;
    std::filesystem::create_directories(dir.path() + "/results/keep");
    job.TakeBackWorkDir();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/results/r.json.fio"));
  EXPECT_TRUE(std::filesystem::is_directory(dir.path() + "/results/keep"));
  // Without a refusal the work directory stays for the run.
  {
    RunJob job(config, [](const std::string&) {});
    std::string err;
    ASSERT_TRUE(job.Check(&err) && job.MakeWorkDir(&err)) << err;
  }
  EXPECT_TRUE(std::filesystem::is_directory(dir.path() + "/results/r.json.fio"));
  std::filesystem::current_path(before);
}

TEST(RunJobTest, AJobWithoutASuiteStopsAtItsFirstStep) {
  std::vector<std::string> reported;
  RunJob job(RunConfig{}, [&reported](const std::string& line) { reported.push_back(line); });
  std::string err;
  EXPECT_FALSE(job.Check(&err));
  EXPECT_EQ(err, "no suite given (see --help)");
  EXPECT_TRUE(job.Restore());  // nothing was journaled
  EXPECT_TRUE(reported.empty());
}

TEST(RunJobTest, RemakeThenRepinWithoutAControlIsTheRemake) {
  int calls = 0;
  const auto remake = [&calls](bool ok) {
    return RemakeThenRepin(
        [&calls, ok](std::string* err) {
          ++calls;
          if (!ok) *err = "mkfs failed";
          return ok;
        },
        nullptr);
  };
  std::string err;
  EXPECT_TRUE(remake(true)(&err));
  EXPECT_FALSE(remake(false)(&err));
  EXPECT_EQ(err, "mkfs failed");
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace elevbench
