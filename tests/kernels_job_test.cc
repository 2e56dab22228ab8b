// `run --kernels`'s usage checks without a guest (harness/run/kernels_job.h): each refusal is one
// line, exit 2, and comes before anything is made, root or not (issue 57 §4).

#include "harness/run/kernels_job.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <memory>

#include "app/suites.h"
#include "harness/process/subprocess.h"
#include "harness/run/run_checks.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

// A run's config as the CLI makes it of `run tiobench --emulated ide-2003 --kernels K`.
RunConfig KernelsJobTestConfig(Suite* suite, const std::string& out) {
  RunConfig config;
  config.suite = suite;
  config.suite_name = "tiobench";
  config.target.emulated = "ide-2003";
  config.kernels = "debian:linux-image-6.1.0-47-cloud-amd64";
  config.out = out;
  return config;
}

// §4.7: "--lanes x" with one kernel said "not a number of guests from 1 to 1", not what --lanes
// takes there.
TEST(KernelsJobTest, LanesSayWhatTheyTakeWithKernels) {
  testing::ScopedTempDir dir;
  std::unique_ptr<Suite> suite = FindSuite("tiobench")->make();
  RunConfig config = KernelsJobTestConfig(suite.get(), dir.path() + "/r.json");
  config.lanes = "x";
  KernelsJob job(config, [](const std::string&) {});
  std::string err;
  EXPECT_EQ(job.Prepare(&err), RunFailure::kUsage);
  EXPECT_NE(err.find("--lanes with --kernels takes how many guests boot at once"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("one per kernel (1 kernel here)"), std::string::npos) << err;
  EXPECT_NE(err.find("not 'x'"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir.path() + "/r.json.fio"));
}

// A kernel in the cache as `kernels fetch` leaves one (files only: no guest boots here).
void WriteCachedKernelForJobTest(const std::string& cache, const std::string& package,
                                 const std::string& release) {
  const std::string root = cache + "/" + package;
  fs::create_directories(root + "/lib/modules/" + release);
  fs::create_directories(root + "/boot");
  std::ofstream(root + "/lib/modules/" + release + "/modules.dep") << "";
  std::ofstream(root + "/boot/vmlinuz-" + release) << "image";
  std::ofstream(root + "/boot/config-" + release)
      << "CONFIG_MQ_IOSCHED_DEADLINE=y\nCONFIG_VIRTIO_FS=m\nCONFIG_BLK_DEV_LOOP=m\n"
         "CONFIG_FUSE_FS=m\n";
}

// §4.1: --machine with 2 CPUs on the instruction clock was refused after <out>.fio/ was made,
// and the default results/<stamp>-tiobench.json.fio/ stayed in the working directory.
TEST(KernelsJobTest, MachineCpusOnTheInstructionClockAreRefusedBeforeAnythingIsMade) {
  testing::ScopedTempDir cwd;
  testing::ScopedTempDir cache;
  WriteCachedKernelForJobTest(cache.path(), "linux-image-6.1.0-47-cloud-amd64",
                              "6.1.0-47-cloud-amd64");
  testing::ScopedEnv env("ELEVBENCH_KERNEL_CACHE", cache.path());
  ProcessOptions options;
  options.working_directory = cwd.path();
  options.timeout_seconds = 120;
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess(
      {ELEVBENCH_BINARY, "run", "tiobench", "--emulated", "ide-2003", "--kernels",
       "debian:linux-image-6.1.0-47-cloud-amd64", "--machine", "ram=512M,cpus=2", "--no-history"},
      options, &r, &err))
      << err;
  EXPECT_EQ(r.exit_code, 2) << r.error_output;
  EXPECT_NE(r.error_output.find("give --guest-clock wall for them"), std::string::npos)
      << r.error_output;
  EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1) << r.error_output;
  EXPECT_TRUE(fs::is_empty(cwd.path())) << "the refused run left something in " << cwd.path();
}

// §4.4: a file a guest must read was accepted under /tmp, which the guest's own tmpfs hides
// (docs/kernels.md), and a file it must write anywhere (its root is the host's, read-only).
// Each flag of the class is refused in one line naming the file and why, before Prepare reads it
// where it can be (a composite's parts are known after it).
struct GuestPathCase {
  std::string suite;
  std::vector<std::string> args;  // the suite's own options
  std::string disk_trace;         // --disk-trace
  std::string needle;
};

TEST(KernelsJobTest, FilesAGuestCannotReadOrWriteAreRefusedNamingTheFlag) {
  testing::ScopedTempDir dir;  // under /tmp
  const std::string tree = dir.path() + "/tree";
  fs::create_directories(tree);
  std::ofstream(dir.path() + "/job.fio") << "[j]\nrw=read\nsize=1M\n";
  std::ofstream(dir.path() + "/prog") << "#!/bin/sh\n";
  const std::string hidden =
      " is under /tmp, which a guest does not see (its /tmp, /var/tmp "
      "and /run are its own): put it elsewhere, e.g. under the working "
      "directory";
  const std::vector<GuestPathCase> cases = {
      {"replay",
       {"--trace", dir.path() + "/t.trace"},
       "",
       "--kernels: run replay's --trace " + dir.path() + "/t.trace" + hidden},
      {"fio",
       {dir.path() + "/job.fio"},
       "",
       "--kernels: run fio's job file " + dir.path() + "/job.fio" + hidden},
      {"probes", {"--tree", tree}, "", "--kernels: run probes' --tree " + tree + hidden},
      {"contest",
       {"--compile-tree", tree},
       "",
       "--kernels: run contest's --compile-tree " + tree + hidden},
      {"command",
       {"--", dir.path() + "/prog"},
       "",
       "--kernels: run command's program " + dir.path() + "/prog" + hidden},
      {"post-2003",
       {"--parts", "probes", "--part-args", "probes=--tree " + tree},
       "",
       "--kernels: run post-2003's --part-args probes=--tree " + tree + hidden},
      {"tiobench",
       {},
       "/var/tmp/d.trace",
       "--kernels: --disk-trace /var/tmp/d.trace: a guest writes nothing on the host but its "
       "results (the host's root is read-only in it); leave --disk-trace out with --kernels"},
  };
  for (const GuestPathCase& c : cases) {
    std::unique_ptr<Suite> suite = FindSuite(c.suite)->make();
    CLI::App app;
    suite->AddOptions(&app);
    std::vector<std::string> args(c.args.rbegin(), c.args.rend());
    ASSERT_NO_THROW(app.parse(args)) << c.suite;
    RunConfig config = KernelsJobTestConfig(suite.get(), dir.path() + "/r.json");
    config.suite_name = c.suite;
    config.disk_trace = c.disk_trace;
    CheckedRun checked;
    std::string err;
    EXPECT_FALSE(CheckRunConfig(config, ReadMachineInfo(), &checked, &err)) << c.suite;
    EXPECT_EQ(err, c.needle) << c.suite;
  }
}

// The binary's way: `run replay --trace /tmp/… --kernels …` is refused from the words, before
// root is asked for, a kernel fetched (the package here is none apt knows) or <out>.fio/ made.
TEST(KernelsJobTest, TheBinaryRefusesAReplaysTraceUnderTmpBeforeAnyKernelIsFetched) {
  testing::ScopedTempDir dir;
  const std::string cache = dir.path() + "/cache";
  testing::ScopedEnv env("ELEVBENCH_KERNEL_CACHE", cache);
  const std::string trace = dir.path() + "/t.trace";
  std::ofstream(trace) << "not read";
  const ProcessResult r = testing::RunElevbenchCli(
      {"run", "replay", "--trace", trace, "--emulated", "ide-2003", "--kernels",
       "debian:linux-image-0.0.0-nosuch-amd64", "--out", dir.path() + "/r.json"});
  EXPECT_EQ(r.exit_code, 2) << r.error_output;
  EXPECT_EQ(r.error_output, "elevbench: --kernels: run replay's --trace " + trace +
                                " is under /tmp, which a guest does not see (its /tmp, /var/tmp "
                                "and /run are its own): put it elsewhere, e.g. under the working "
                                "directory\n");
  EXPECT_FALSE(fs::exists(cache));
  EXPECT_FALSE(fs::exists(dir.path() + "/r.json.fio"));
}

}  // namespace
}  // namespace elevbench
