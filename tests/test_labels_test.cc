// The ctest labels (CMakeLists.txt): a test whose suite name ends in "RootTest" is labelled root
// (`ctest -L root`), every other test unit (`ctest -L unit`). A unit test needs no root, loop
// device, FUSE, cgroup, fio run or browser, so a contributor can run that half anywhere, fast.
// This test holds the unit half to it: it runs every unit test as an unprivileged user with a
// fio that does no I/O and a chromium that fails in front of the real ones, and fails naming
// any test that fails there, or skips there but runs as root. Rename such a test's suite to
// end in RootTest (a subclass of its fixture will do).

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "harness/core/error.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

constexpr uid_t kNobody = 65534;
const char kUnitFilter[] = "-*RootTest.*";  // as gtest_discover_tests' TEST_FILTER for unit

// The first `program` on $PATH, or "".
std::string FindInPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = dir + "/" + program;
    if (!dir.empty() && access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Writes an executable script `name` into `bin`.
void WriteScript(const std::string& bin, const std::string& name, const std::string& body) {
  const std::string path = bin + "/" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body;
  ASSERT_EQ(chmod(path.c_str(), 0755), 0) << path;
}

// Stand-ins for the programs a unit test must not run for real: fio only parses job files or
// says its version (no I/O), and chromium always fails. Returns the directory that holds them.
std::string MakeGuardBin(const std::string& dir) {
  const std::string bin = dir + "/bin";
  std::filesystem::create_directory(bin);
  const std::string fio = FindInPath("fio");
  const std::string no_io =
      "echo \"fio: a unit test runs no I/O (tests/test_labels_test.cc)\" >&2\n";
  WriteScript(bin, "fio",
              fio.empty() ? no_io + "exit 1\n"
                          : "for a in \"$@\"; do\n  case \"$a\" in --parse-only|--version) exec " +
                                fio + " \"$@\";; esac\ndone\n" + no_io + "exit 1\n");
  WriteScript(bin, "chromium",
              "echo \"chromium: not in a unit test (tests/test_labels_test.cc)\" >&2\nexit 1\n");
  return bin;
}

// Whether the unprivileged user `uid` may enter the directory `dir` (its mode's search bit for
// the owner, group or others, as the kernel checks it; no ACLs).
bool UserMayEnter(const std::string& dir, uid_t uid) {
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) return false;
  if (st.st_uid == uid) return (st.st_mode & S_IXUSR) != 0;
  if (st.st_gid == uid) return (st.st_mode & S_IXGRP) != 0;
  return (st.st_mode & S_IXOTH) != 0;
}

// The first directory from / down to `path` (itself included) that `uid` may not enter, or ""
// when every one may be entered.
std::string FirstClosedDirectory(const std::string& path, uid_t uid) {
  std::filesystem::path walked = "/";
  for (const auto& part : std::filesystem::path(path).relative_path()) {
    walked /= part;
    if (!UserMayEnter(walked.string(), uid)) return walked.string();
  }
  return "";
}

// Shell words that, run as root in a private mount namespace, let `uid` reach the clone at
// `source` when one of its directories is closed to it (a clone in root's home, 0700 on
// Debian, or in a `mktemp -d` folder): the clone is bound at `stage`, a tmpfs (mode 755) covers
// the first closed directory in this namespace only, the path down to the clone is made again
// on it, and each of the clone's entries is bound back in place. Nothing of the host's mounts
// or modes changes (issue 58 §7: as nobody the unit half failed on build/elevbench_tests,
// "Permission denied", from such a clone). "" when nothing is closed.
std::string ExposeCloneScript(const std::string& source, const std::string& stage, uid_t uid) {
  const std::string closed = FirstClosedDirectory(source, uid);
  if (closed.empty()) return "";
  return "set -e; mkdir -p '" + stage + "'; mount --bind '" + source + "' '" + stage +
         "'; mount -t tmpfs -o mode=755 elevbench-test '" + closed + "'; mkdir -p '" + source +
         "'; for e in '" + stage + "'/* '" + stage + "'/.[!.]*; do [ -e \"$e\" ] || continue; " +
         "t='" + source + "'/\"${e##*/}\"; if [ -L \"$e\" ]; then cp -P \"$e\" \"$t\"; " +
         "elif [ -d \"$e\" ]; then mkdir \"$t\"; mount --bind \"$e\" \"$t\"; " +
         "else : > \"$t\"; mount --bind \"$e\" \"$t\"; fi; done; ";
}

struct GtestOutcome {
  std::set<std::string> failed;
  std::string failure_text;  // gtest's message of every failure, for the assertion's output
  std::set<std::string> skipped;
  size_t ran = 0;
};

// Runs this binary with `filter` (as nobody when `as_nobody`) in `dir` and reads its gtest json.
bool RunSelfShard(const std::string& filter, bool as_nobody, const std::string& dir,
                  const std::string& path, int shard, int shards, GtestOutcome* outcome,
                  std::string* err) {
  const std::string json =
      dir + (as_nobody ? "/unit-as-nobody-" : "/as-root-") + std::to_string(shard) + ".json";
  std::vector<std::string> argv;
  if (as_nobody) {
    argv = {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
  }
  // The parent's private state directory is root's: the child makes its own.
  const std::vector<std::string> env = {"env",
                                        "-u",
                                        "ELEVBENCH_STATE_DIR",
                                        "PATH=" + path,
                                        "HOME=" + dir,
                                        "TMPDIR=/tmp",
                                        "GTEST_TOTAL_SHARDS=" + std::to_string(shards),
                                        "GTEST_SHARD_INDEX=" + std::to_string(shard)};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.insert(argv.end(), {std::filesystem::read_symlink("/proc/self/exe").string(),
                           "--gtest_filter=" + filter, "--gtest_output=json:" + json});
  const std::string expose =
      as_nobody ? ExposeCloneScript(ELEVBENCH_SOURCE_DIR, dir + "/clone", kNobody) : "";
  if (!expose.empty()) {
    std::string words;
    for (const std::string& a : argv) words += " '" + a + "'";
    argv = {"unshare", "--mount", "--propagation", "private", "sh", "-c", expose + "exec" + words};
  }
  ProcessOptions opts;
  opts.working_directory = dir;
  opts.timeout_seconds = 600;
  ProcessResult r;
  if (!RunProcess(argv, opts, &r, err)) return false;
  const nlohmann::json doc = nlohmann::json::parse(testing::ReadFileOrEmpty(json), nullptr, false);
  if (doc.is_discarded() || !doc.contains("testsuites")) {
    *err = "no gtest json from the child (exit " + std::to_string(r.exit_code) +
           "): " + r.error_output.substr(0, 2000);
    return false;
  }
  for (const nlohmann::json& suite : doc["testsuites"]) {
    for (const nlohmann::json& test : suite["testsuite"]) {
      const std::string name =
          suite["name"].get<std::string>() + "." + test["name"].get<std::string>();
      ++outcome->ran;
      if (test.contains("failures")) {
        outcome->failed.insert(name);
        for (const nlohmann::json& f : test["failures"]) {
          outcome->failure_text += name + ": " + f.value("failure", std::string()) + "\n";
        }
      }
      if (test.value("result", "") == "SKIPPED") outcome->skipped.insert(name);
    }
  }
  return true;
}

// Runs this binary with `filter` (as nobody when `as_nobody`) in `dir`, as one gtest shard per
// CPU at once (the unit half is held to running anywhere, so also beside itself), and merges the
// shards' outcomes.
bool RunSelf(const std::string& filter, bool as_nobody, const std::string& dir,
             const std::string& path, GtestOutcome* outcome, std::string* err) {
  const int shards = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<GtestOutcome> outcomes(shards);
  std::vector<std::string> errs(shards);
  std::vector<char> ok(shards, 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < shards; ++i) {
    threads.emplace_back([&, i] {
      ok[i] = RunSelfShard(filter, as_nobody, dir, path, i, shards, &outcomes[i], &errs[i]);
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < shards; ++i) {
    if (!ok[i]) return Fail(err, "shard " + std::to_string(i) + ": " + errs[i]);
    outcome->failed.insert(outcomes[i].failed.begin(), outcomes[i].failed.end());
    outcome->failure_text += outcomes[i].failure_text;
    outcome->skipped.insert(outcomes[i].skipped.begin(), outcomes[i].skipped.end());
    outcome->ran += outcomes[i].ran;
  }
  return true;
}

std::string JoinNames(const std::set<std::string>& names, const char* sep) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : sep) + n;
  return out;
}

TEST(TestLabelsRootTest, EveryUnitTestPassesAsNobodyWithoutFioIoOrABrowser) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to run the unit tests as another user";
  if (!ProgramInPath("setpriv")) GTEST_SKIP() << "needs setpriv (util-linux)";
  testing::ScopedTempDir temp;
  ASSERT_EQ(chown(temp.path().c_str(), kNobody, kNobody), 0);
  const std::string path =
      MakeGuardBin(temp.path()) + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
  GtestOutcome unit;
  std::string err;
  ASSERT_TRUE(RunSelf(kUnitFilter, true, temp.path(), path, &unit, &err)) << err;
  EXPECT_GT(unit.ran, 100u);
  EXPECT_TRUE(unit.failed.empty())
      << "unit tests that fail as nobody, with fio doing no I/O and no chromium (rename their "
         "suites ...RootTest if they need root, devices, fio or a browser; else fix them):\n  "
      << JoinNames(unit.failed, "\n  ") << "\n"
      << unit.failure_text;
  if (unit.skipped.empty()) return;
  // A skip is fine when the test skips as root too (a tool missing on this machine).
  GtestOutcome as_root;
  ASSERT_TRUE(RunSelf(JoinNames(unit.skipped, ":"), false, temp.path(), path, &as_root, &err))
      << err;
  std::set<std::string> need_root;
  for (const std::string& name : unit.skipped) {
    if (as_root.skipped.count(name) == 0) need_root.insert(name);
  }
  EXPECT_TRUE(need_root.empty())
      << "unit tests that skip as nobody but run as root (their suites must end in RootTest):\n  "
      << JoinNames(need_root, "\n  ");
}

}  // namespace
}  // namespace elevbench
