#pragma once
// Shared helpers for the tests: paths of fixtures and golden files, golden comparison, files,
// temporary directories and environment variables. The fakes are in fakes.h.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "app/suites.h"
#include "harness/process/subprocess.h"
#include "reporters/report_tables.h"

// CMake defines both for the test binary; the fallbacks let a single test file be compiled by
// hand from the project root.
#ifndef ELEVBENCH_TEST_DATA_DIR
#define ELEVBENCH_TEST_DATA_DIR "tests"
#endif
#ifndef ELEVBENCH_BINARY
#define ELEVBENCH_BINARY "build/elevbench"
#endif

namespace elevbench::testing {

/// Absolute path of a file under tests/.
inline std::string TestDataPath(const std::string& relative) {
  return std::string(ELEVBENCH_TEST_DATA_DIR) + "/" + relative;
}

/// Runs argv (losetup, sha256sum: a root test's device commands) to its end within `seconds`,
/// SIGTERM then SIGKILL after; the wait itself is bounded too, so a child stuck in the kernel
/// cannot hold the test. *output (may be null) gets its stdout; false with err on a timeout or
/// a non-zero exit.
bool RunDeviceCommandWithin(const std::vector<std::string>& argv, double seconds,
                            std::string* output, std::string* err);

/// "journal left in DIR" when DIR holds a run's journal (journal.json), "" otherwise. A leftover
/// check must look in the state directory the tests' runs use (the binary's private one,
/// private_state_dir_test.cc: DefaultStateDir() in the test process), not /var/lib/elevbench.
std::string JournalLeftIn(const std::string& state_dir);

/// Compares `actual` with tests/golden/<name>; with ELEVBENCH_UPDATE_GOLDEN=1 rewrites it, except
/// under CI (InCi), where a rewrite would assert nothing: there the variable fails the test.
void ExpectMatchesGolden(const std::string& name, const std::string& actual);

/// True under a CI run (the environment variable CI set and not "false" or "0", as GitHub
/// Actions, GitLab and .ci/run set it). There, infrastructure a test needs that fails to start
/// (PostgreSQL's initdb, the test kernel's fetch) is a failure, not a skip: a CI that passes by
/// skipping has not looked.
bool InCi();

/// GTEST_SKIP's reason outside CI; under CI a failure with the same reason (InCi). For a test
/// whose infrastructure is installed by scripts/install-deps --test and failed to start.
#define ELEVBENCH_SKIP_OR_FAIL_IN_CI(reason)                              \
  do {                                                                    \
    if (::elevbench::testing::InCi()) FAIL() << "under CI: " << (reason); \
    GTEST_SKIP() << (reason);                                             \
  } while (0)

/// A fresh directory "<base>/elevbench-test-XXXXXX", removed with its contents on destruction.
class ScopedTempDir {
 public:
  explicit ScopedTempDir(const std::string& base = "/tmp");
  ~ScopedTempDir();
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Sets an environment variable while it lives and then puts back what was there before (the
/// value, or its absence): the test binary runs with a state directory of its own
/// (private_state_dir_test.cc) that a test must not lose.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

/// `files` with their measurements and plot series made by their suites, as `report` makes them
/// for the generic formats (test failure when a file's records are not its suite's).
inline std::vector<NamedResults> WithMeasurements(std::vector<NamedResults> files) {
  for (NamedResults& file : files) {
    std::string err;
    EXPECT_TRUE(MeasurementsOf(file.doc, &file.measurements, &err)) << file.name << ": " << err;
    EXPECT_TRUE(PlotSeriesOf(file.doc, &file.plots, &err)) << file.name << ": " << err;
  }
  return files;
}

/// One file with its measurements and plot series (WithMeasurements).
inline NamedResults Measured(NamedResults file) {
  return std::move(WithMeasurements(std::vector<NamedResults>{std::move(file)}).front());
}

/// Compares what `run` and `report` print for `doc` in `format` (RenderResults: the suite's
/// tables, then the verdict block) with tests/golden/<name>, after checking that it is `tables`
/// (the suite renderer's own text) followed by the block alone: the block never changes a table.
inline void ExpectPrintedMatchesGolden(const std::string& name, const ResultsDocument& doc,
                                       const std::string& format, const std::string& tables) {
  std::string text, err;
  ASSERT_TRUE(RenderResults(doc, format, ReportOptions{}, &text, &err)) << err;
  ASSERT_EQ(text.rfind(tables, 0), 0u) << "the tables come first, unchanged:\n" << text;
  EXPECT_EQ(text.substr(tables.size()).rfind("\nVerdict (", 0), 0u) << text;
  ExpectMatchesGolden(name, text);
}

/// Why an emulated-disk run cannot be made here, for a root test's skip message ("needs root to
/// create loop devices, cgroups, FUSE", "needs /dev/fuse", "needs fio, losetup and mkfs.ext2
/// (scripts/install-deps)"); "" when it can. The root tests' one preamble.
std::string WhyEmulatedDiskCannotRun();

/// Runs this build's elevbench (ELEVBENCH_BINARY) with `args`, its stdout and stderr captured,
/// stopped after `timeout_seconds`; a test failure when it cannot be started. The CLI tests'
/// one way in.
ProcessResult RunElevbenchCli(const std::vector<std::string>& args, double timeout_seconds = 120);

/// Options for running `elevbench restore` from a test: stopped after 120 s (restore itself
/// finishes within a bounded time; a test never waits on it without one).
inline ProcessOptions RestoreProcessOptions() {
  ProcessOptions options;
  options.timeout_seconds = 120;
  return options;
}

/// Starts `args` (args[0] a path: the elevbench binary) as a child with ELEVBENCH_STATE_DIR =
/// `state_dir` (unset: inherited), stdin and stdout on /dev/null and stderr on `stderr_fd` (< 0:
/// /dev/null), in a process group of its own when `own_group` (so SIGINT reaches it as a
/// terminal's Ctrl-C would). The child gets SIGTERM when the test process dies
/// (PR_SET_PDEATHSIG; at once if it is already gone): a test killed mid-run, by ctest's timeout
/// or a stopped session, must not leave its run going, nor what the run started (a guest's
/// QEMU): SIGTERM is the run's interrupt, which stops its children and restores its journal.
/// Returns the pid, or -1 when fork failed.
pid_t SpawnElevbench(const std::vector<std::string>& args, const std::string& state_dir,
                     int stderr_fd, bool own_group = false);

/// The exit code of a child SpawnElevbench started (128 + the signal when one ended it). A child
/// still running after `seconds` is a test failure, SIGKILLed and reaped (a test never waits
/// without a bound); -1 when even that reap fails.
int WaitForSpawned(pid_t pid, double seconds);

/// Reads a whole file (test failure if missing).
std::string ReadTestFile(const std::string& path);

/// Reads a whole file, or "" when it cannot be opened: for files whose absence is an answer
/// (a /proc/PID entry of a process that is gone, a sysfs attribute this kernel lacks).
std::string ReadFileOrEmpty(const std::string& path);

/// Every path under `dir` (links as links, not followed) with what it is: a link's target, a
/// file's size, time and a hash of its bytes. Two listings equal: nothing under `dir` was written
/// (a user's kernel build tree that `run --kernels image:…` only reads).
std::map<std::string, std::string> TreeListing(const std::string& dir);

/// Every backing device's writeback limits ("max_ratio_fine\nmin_ratio_fine\nstrict_limit\n"),
/// by its name ("7:3"): what a run that gives a disk its own limit must leave as it found.
std::map<std::string, std::string> BdiWritebackValues();

/// The writeback limits of a backing device made after BdiWritebackValues() was taken.
inline constexpr const char* kDefaultBdiWriteback = "1000000\n0\n0\n";

/// Whether the running kernel offers the I/O scheduler `name`, as `run --schedulers` decides it
/// (OfferedSchedulers). A kernel built without CONFIG_IOSCHED_BFQ has no bfq.
bool KernelOffersScheduler(const std::string& name);

/// The scheduler a live test sets against mq-deadline: "bfq:low_latency=0" (the anticipating
/// one) where the kernel offers bfq, else "kyber", so that the test still switches between two
/// real schedulers on a kernel without bfq.
std::string SecondLiveScheduler();

/// Loads the results file tests/<relative> as the reports take it (a test failure when it does
/// not load), named `name`, or by its file name when `name` is empty.
NamedResults LoadNamedResults(const std::string& relative, const std::string& name = "");

}  // namespace elevbench::testing
