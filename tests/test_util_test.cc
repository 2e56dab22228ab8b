// Implementation of test_util.h (kept in a *_test.cc so the test glob picks it up).

#include "test_util.h"

#include <fcntl.h>
#include <gtest/gtest-spi.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "harness/device/block_device.h"
#include "harness/device/restore_journal.h"
#include "harness/process/bounded_call.h"
#include "harness/results/results_document.h"

namespace elevbench::testing {

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
  if (const char* old = std::getenv(name)) {
    had_ = true;
    old_ = old;
  }
  setenv(name, value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (had_) {
    setenv(name_, old_.c_str(), 1);
  } else {
    unsetenv(name_);
  }
}

ScopedTempDir::ScopedTempDir(const std::string& base) {
  std::string tmpl = base + "/elevbench-test-XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp in " << base << " failed";
    return;
  }
  path_ = tmpl;
}

ScopedTempDir::~ScopedTempDir() {
  if (path_.empty()) return;
  // A test may leave a directory it made read-only (source_tree_test's "ro"): as root that does
  // not stop remove_all, as nobody (TestLabelsRootTest) it did, and the tree stayed in /tmp.
  // Each directory is given its owner's rights back before the iterator descends into it.
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
  for (fs::recursive_directory_iterator it(path_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec) && !it->is_symlink(type_ec)) {
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, type_ec);
    }
  }
  fs::remove_all(path_, ec);
}

std::string ReadTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test file " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::map<std::string, std::string> TreeListing(const std::string& dir) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    std::string facts = e.is_symlink() ? "link " + fs::read_symlink(e.path()).string() : "";
    if (!e.is_symlink() && e.is_regular_file()) {
      facts = std::to_string(e.file_size()) + " " +
              std::to_string(e.last_write_time().time_since_epoch().count()) + " " +
              std::to_string(std::hash<std::string>{}(ReadFileOrEmpty(e.path().string())));
    }
    out[e.path().string()] = facts;
  }
  return out;
}

std::map<std::string, std::string> BdiWritebackValues() {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/bdi", ec)) {
    std::string v;
    for (const char* f : {"max_ratio_fine", "min_ratio_fine", "strict_limit"}) {
      v += ReadFileOrEmpty(e.path().string() + "/" + f);
    }
    out[e.path().filename().string()] = v;
  }
  return out;
}

bool KernelOffersScheduler(const std::string& name) {
  const std::vector<std::string> offered = OfferedSchedulers();
  return std::find(offered.begin(), offered.end(), name) != offered.end();
}

std::string SecondLiveScheduler() {
  return KernelOffersScheduler("bfq") ? "bfq:low_latency=0" : "kyber";
}

ProcessResult RunElevbenchCli(const std::vector<std::string>& args, double timeout_seconds) {
  std::vector<std::string> argv = {ELEVBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions opts;
  opts.timeout_seconds = timeout_seconds;
  ProcessResult run;
  std::string err;
  EXPECT_TRUE(RunProcess(argv, opts, &run, &err)) << err;
  return run;
}

bool RunDeviceCommandWithin(const std::vector<std::string>& argv, double seconds,
                            std::string* output, std::string* err) {
  ProcessOptions options;
  options.timeout_seconds = seconds;
  options.kill_grace_seconds = 2;
  ChildProcess child;
  if (!child.Start(argv, options, err)) return false;
  if (!child.Wait(seconds + 10, err)) return false;
  const ProcessResult& r = child.result();
  if (r.timed_out || r.exit_code != 0) {
    *err = argv[0] +
           (r.timed_out ? " did not finish within " + std::to_string(seconds) + " s"
                        : " exited " + std::to_string(r.exit_code)) +
           ": " + r.error_output;
    return false;
  }
  if (output) *output = r.output;
  return true;
}

std::string WhyEmulatedDiskCannotRun() {
  if (geteuid() != 0) return "needs root to create loop devices, cgroups, FUSE";
  if (access("/dev/fuse", R_OK | W_OK) != 0) return "needs /dev/fuse";
  if (!ProgramInPath("fio") || !ProgramInPath("losetup") || !ProgramInPath("mkfs.ext2")) {
    return "needs fio, losetup and mkfs.ext2 (scripts/install-deps)";
  }
  return "";
}

NamedResults LoadNamedResults(const std::string& relative, const std::string& name) {
  NamedResults file;
  file.name = name.empty() ? relative.substr(relative.rfind('/') + 1) : name;
  std::string err;
  EXPECT_TRUE(LoadResultsFile(TestDataPath(relative), &file.doc, &err)) << err;
  return file;
}

std::string JournalLeftIn(const std::string& state_dir) {
  const std::string journal = state_dir + "/journal.json";
  return access(journal.c_str(), F_OK) == 0 ? "journal left in " + state_dir : "";
}

bool InCi() {
  const char* ci = std::getenv("CI");
  if (ci == nullptr) return false;
  const std::string value = ci;
  return !value.empty() && value != "false" && value != "0";
}

void ExpectMatchesGolden(const std::string& name, const std::string& actual) {
  const std::string path = TestDataPath("golden/" + name);
  const char* update = std::getenv("ELEVBENCH_UPDATE_GOLDEN");
  if (update && std::string(update) == "1" && InCi()) {
    ADD_FAILURE() << "ELEVBENCH_UPDATE_GOLDEN=1 under CI would rewrite " << path
                  << " and assert nothing; refused";
    return;
  }
  if (update && std::string(update) == "1") {
    std::ofstream out(path, std::ios::binary);
    out << actual;
    return;
  }
  EXPECT_EQ(ReadTestFile(path), actual)
      << "golden file " << path << " differs (ELEVBENCH_UPDATE_GOLDEN=1 rewrites it)";
}

pid_t SpawnElevbench(const std::vector<std::string>& args, const std::string& state_dir,
                     int stderr_fd, bool own_group) {
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) return pid;
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(127);  // the test died before the signal was armed
  if (own_group) setpgid(0, 0);
  if (!state_dir.empty()) setenv("ELEVBENCH_STATE_DIR", state_dir.c_str(), 1);
  const int devnull = open("/dev/null", O_RDWR);
  dup2(devnull, STDIN_FILENO);
  dup2(devnull, STDOUT_FILENO);
  dup2(stderr_fd >= 0 ? stderr_fd : devnull, STDERR_FILENO);
  std::vector<std::string> words = args;
  std::vector<char*> argv;
  for (std::string& a : words) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  _exit(127);
}

int WaitForSpawned(pid_t pid, double seconds) {
  int status = 0;
  if (!ReapChildWithin(pid, seconds, &status)) {
    ADD_FAILURE() << "the run did not exit within " << seconds << " s";
    kill(pid, SIGKILL);
    if (!ReapChildWithin(pid, 30, &status)) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace elevbench::testing

namespace elevbench {
namespace {

// A directory a test made read-only goes with its temporary directory: as nobody
// (TestLabelsRootTest runs every unit test so), source_tree_test's read-only "ro" kept a tree in
// /tmp after every CI run.
TEST(ScopedTempDirTest, AReadOnlyDirectoryInsideGoesToo) {
  std::string path;
  {
    testing::ScopedTempDir temp;
    path = temp.path();
    ASSERT_EQ(mkdir((path + "/ro").c_str(), 0755), 0);
    std::ofstream(path + "/ro/inside") << "kept\n";
    ASSERT_EQ(chmod((path + "/ro").c_str(), 0555), 0);
    ASSERT_EQ(chmod(path.c_str(), 0555), 0);
  }
  EXPECT_FALSE(std::filesystem::exists(path)) << path;
}

// A CI run that rewrites the goldens asserts nothing (issue 58 §7): under CI the variable fails
// the comparison and leaves the golden as it was.
TEST(GoldenTest, UpdateIsRefusedUnderCi) {
  const std::string path = testing::TestDataPath("golden/compare_text.txt");
  const std::string before = testing::ReadTestFile(path);
  ASSERT_FALSE(before.empty());
  testing::ScopedEnv ci("CI", "true");
  testing::ScopedEnv update("ELEVBENCH_UPDATE_GOLDEN", "1");
  EXPECT_NONFATAL_FAILURE(testing::ExpectMatchesGolden("compare_text.txt", "not the golden\n"),
                          "under CI would rewrite");
  EXPECT_EQ(testing::ReadTestFile(path), before);
}

// The leftover checks look where the tests' runs write their journal (issue 58 §7: they looked at
// /var/lib/elevbench while the runs used the binary's private state directory).
TEST(JournalLeftInTest, SeesAJournalInTheTestsStateDirectory) {
  const char* dir = std::getenv("ELEVBENCH_STATE_DIR");
  ASSERT_NE(dir, nullptr);
  EXPECT_EQ(DefaultStateDir(), std::string(dir));
  testing::ScopedTempDir temp;
  EXPECT_EQ(testing::JournalLeftIn(temp.path()), "");
  std::ofstream(temp.path() + "/journal.json") << "{}";
  EXPECT_EQ(testing::JournalLeftIn(temp.path()), "journal left in " + temp.path());
}

TEST(GoldenTest, CiIsReadFromTheEnvironment) {
  {
    testing::ScopedEnv ci("CI", "true");
    EXPECT_TRUE(testing::InCi());
  }
  {
    testing::ScopedEnv ci("CI", "false");
    EXPECT_FALSE(testing::InCi());
  }
  {
    testing::ScopedEnv ci("CI", "");
    EXPECT_FALSE(testing::InCi());
  }
}

// What left a guest's QEMU running after a session stopped mid-test: a test's run outlived the
// test. A "test" (the middle process) spawns a long child and is SIGKILLed; the child must be
// gone within seconds, not run on to its end.
TEST(SpawnElevbenchTest, TheRunDiesWithTheTestThatStartedIt) {
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  const pid_t test = fork();
  ASSERT_GE(test, 0);
  if (test == 0) {
    const pid_t run = testing::SpawnElevbench({"/bin/sleep", "60"}, "", -1);
    (void)!write(pipefd[1], &run, sizeof run);
    pause();
    _exit(0);
  }
  close(pipefd[1]);
  pid_t run = 0;
  ASSERT_EQ(read(pipefd[0], &run, sizeof run), static_cast<ssize_t>(sizeof run));
  close(pipefd[0]);
  ASSERT_GT(run, 0);
  kill(test, SIGKILL);
  int status = 0;
  ASSERT_TRUE(ReapChildWithin(test, 10, &status));
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = kill(run, 0) != 0 ||
           testing::ReadFileOrEmpty("/proc/" + std::to_string(run) + "/stat").find(") Z") !=
               std::string::npos;
    if (!gone) usleep(50000);
  }
  EXPECT_TRUE(gone) << "pid " << run << " outlived the test that started it";
  if (!gone) kill(run, SIGKILL);
}

}  // namespace
}  // namespace elevbench
