#pragma once
// The fixture of the fault tests (tests/faults_test.cc, tests/faults_hang_test.cc): a real
// `elevbench run` with a fault injected from outside while it runs, and the checks of a machine
// left as it was found. Root only; every wait on the run has a deadline.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {

using FaultClock = std::chrono::steady_clock;

// What a run ended with.
struct FaultRun {
  int exit_code = -1;  // -signal when a signal ended it
  std::string stderr_text;
  double seconds_after_fault = -1;  // from the fault's injection to the run's exit
  bool timed_out = false;           // still running at the deadline: SIGKILLed
  /// Each stderr line after the fault, with its seconds after the injection.
  std::vector<std::pair<double, std::string>> lines_after_fault;

  /// Seconds from the injection to the first stderr line containing `text`; -1 when none.
  double SecondsUntilLine(const std::string& text) const {
    for (const auto& [seconds, line] : lines_after_fault) {
      if (line.find(text) != std::string::npos) return seconds;
    }
    return -1;
  }
};

// Everything a run may change and must put back, read before and after.
inline std::map<std::string, std::string> MachineStateForFaults() {
  std::map<std::string, std::string> state;
  for (const auto& e : std::filesystem::directory_iterator("/sys/block")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("loop", 0) != 0 && name.rfind("vd", 0) != 0 && name.rfind("sd", 0) != 0) {
      continue;
    }
    if (std::filesystem::exists(e.path() / "loop" / "backing_file"))
      continue;  // someone's attached loop
    for (const char* attr : {"scheduler", "nr_requests", "read_ahead_kb", "rotational",
                             "wbt_lat_usec", "max_sectors_kb"}) {
      state[name + "/" + attr] = testing::ReadFileOrEmpty(e.path().string() + "/queue/" + attr);
    }
  }
  for (const char* vm : {"dirty_bytes", "dirty_ratio", "dirty_background_bytes",
                         "dirty_background_ratio", "dirty_expire_centisecs"}) {
    state[vm] = testing::ReadFileOrEmpty(std::string("/proc/sys/vm/") + vm);
  }
  return state;
}

class FaultRunFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to create loop devices and switch schedulers";
    if (!ProgramInPath("fio") || !ProgramInPath("losetup") || !ProgramInPath("mkfs.ext4")) {
      GTEST_SKIP() << "needs fio, losetup and mkfs.ext4 (scripts/install-deps)";
    }
    temp_ = std::make_unique<testing::ScopedTempDir>();
    dir_ = temp_->path();
    state_dir_ = dir_ + "/state";
    out_ = dir_ + "/r.json";
    before_ = MachineStateForFaults();
  }

  bool HaveFuse() const { return access("/dev/fuse", R_OK | W_OK) == 0; }

  // Runs `elevbench run ARGS --out OUT --no-history`; `on_line` sees every stderr line (with the
  // run's pid) and returns true once it injected its fault, which starts the clock. A run still
  // going after `deadline_seconds` is SIGKILLed (timed_out): a test never waits without a bound.
  FaultRun Run(std::vector<std::string> args,
               const std::function<bool(const std::string&, pid_t)>& on_line = nullptr,
               bool history = false, double deadline_seconds = 600) {
    args.insert(args.begin(), {ELEVBENCH_BINARY, "run"});
    if (std::find(args.begin(), args.end(), "--out") == args.end()) {
      args.insert(args.end(), {"--out", out_});
    }
    if (!history) args.push_back("--no-history");
    return RunElevbench(args, on_line, deadline_seconds);
  }

  // Runs `args` (argv[0] the binary) with the state directory, its stderr read line by line.
  FaultRun RunElevbench(std::vector<std::string> args,
                        const std::function<bool(const std::string&, pid_t)>& on_line,
                        double deadline_seconds) {
    int pipefd[2];
    EXPECT_EQ(pipe2(pipefd, O_CLOEXEC), 0);
    // A group of its own: SIGINT reaches it as a terminal's Ctrl-C would.
    const pid_t pid = testing::SpawnElevbench(args, state_dir_, pipefd[1], /*own_group=*/true);
    close(pipefd[1]);
    FaultRun run;
    const FaultClock::time_point deadline =
        FaultClock::now() +
        std::chrono::milliseconds(static_cast<int64_t>(deadline_seconds * 1000));
    FaultClock::time_point injected{};
    bool fault_done = on_line == nullptr;
    std::string pending;
    char buf[4096];
    for (;;) {
      pollfd p{pipefd[0], POLLIN, 0};
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - FaultClock::now())
              .count();
      if (left <= 0) {
        run.timed_out = true;
        kill(-pid, SIGKILL);
        break;
      }
      if (poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 1000))) <= 0) continue;
      const ssize_t n = read(pipefd[0], buf, sizeof buf);
      if (n <= 0) break;
      pending.append(buf, static_cast<size_t>(n));
      size_t nl;
      while ((nl = pending.find('\n')) != std::string::npos) {
        const std::string line = pending.substr(0, nl);
        pending.erase(0, nl + 1);
        run.stderr_text += line + "\n";
        if (injected != FaultClock::time_point{}) {
          run.lines_after_fault.emplace_back(
              std::chrono::duration<double>(FaultClock::now() - injected).count(), line);
        }
        if (!fault_done && on_line(line, pid)) {
          fault_done = true;
          injected = FaultClock::now();
        }
      }
    }
    close(pipefd[0]);
    int status = 0;
    EXPECT_TRUE(ReapChildWithin(pid, 60, &status)) << "the run did not exit 60 s after its stderr";
    if (injected != FaultClock::time_point{}) {
      run.seconds_after_fault = std::chrono::duration<double>(FaultClock::now() - injected).count();
    }
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    EXPECT_FALSE(run.timed_out) << "the run was still going after " << deadline_seconds << " s:\n"
                                << run.stderr_text;
    return run;
  }

  // The results file, parsed (a test failure when it is not JSON).
  nlohmann::json Results() const {
    auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(out_), nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << out_ << " is not valid JSON";
    return j.is_discarded() ? nlohmann::json::object() : j;
  }

  // The first journal entry of `kind` ("process", "fuse_connection"; null when none).
  nlohmann::json JournaledEntry(const std::string& kind) const {
    auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(state_dir_ + "/journal.json"), nullptr,
                                   false);
    if (j.is_discarded() || !j.contains("entries")) return nullptr;
    for (const auto& e : j["entries"]) {
      if (e.value("kind", "") == kind) return e;
    }
    return nullptr;
  }

  // The pid the journal recorded for the emulated disk's daemon (0 when none).
  pid_t JournaledDaemonPid() const {
    const nlohmann::json e = JournaledEntry("process");
    return e.is_object() ? e.value("pid", 0) : 0;
  }

  // The run's loop device, from the results context ("" before the file names it).
  std::string LoopDeviceOfTheRun() const {
    auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(out_), nullptr, false);
    if (j.is_discarded() || !j.contains("context")) return "";
    return j["context"]["target"].value("loop_device", std::string());
  }

  // No loop device, mount, daemon, journal, scratch directory, cgroup or tracefs instance of the
  // run; every queue attribute of the free disks and the vm.dirty_* values as before.
  void ExpectCleanMachine() {
    const std::string mounts = testing::ReadFileOrEmpty("/proc/mounts");
    EXPECT_EQ(mounts.find("/var/tmp/elevbench-"), std::string::npos) << "a mount is left:\n"
                                                                     << mounts;
    EXPECT_EQ(mounts.find("fuse.elevbench"), std::string::npos) << mounts;
    std::string losetup, err;
    ASSERT_TRUE(RunChecked({"losetup", "-a"}, &losetup, &err)) << err;
    EXPECT_EQ(losetup.find("/elevbench-"), std::string::npos) << "a loop device is left:\n"
                                                              << losetup;
    std::string ps;
    ASSERT_TRUE(RunChecked({"ps", "-eo", "args"}, &ps, &err)) << err;
    EXPECT_EQ(ps.find("disk serve --backing /var/tmp/elevbench-"), std::string::npos)
        << "the disk daemon survived";
    EXPECT_EQ(ps.find(out_ + ".fio"), std::string::npos) << "a fio survived:\n" << ps;
    EXPECT_FALSE(std::filesystem::exists(state_dir_ + "/journal.json")) << "the journal is left";
    for (const auto& e : std::filesystem::directory_iterator("/var/tmp")) {
      const std::string n = e.path().filename().string();
      if (n.rfind("elevbench-", 0) == 0 &&
          (std::filesystem::exists(e.path() / "scratch.img") ||
           std::filesystem::exists(e.path() / "disk-daemon.log"))) {
        ADD_FAILURE() << "a scratch directory is left: " << e.path();
      }
    }
    for (const char* root : {"/sys/fs/cgroup", "/sys/fs/cgroup/memory", "/sys/fs/cgroup/cpuset"}) {
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(root, ec)) {
        EXPECT_NE(e.path().filename().string().rfind("elevbench-", 0), 0u)
            << "a cgroup is left: " << e.path();
      }
    }
    for (const char* tracing : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
      std::error_code ec;
      for (const auto& e :
           std::filesystem::directory_iterator(std::string(tracing) + "/instances", ec)) {
        EXPECT_NE(e.path().filename().string().rfind("elevbench-", 0), 0u)
            << "a tracefs instance is left: " << e.path();
      }
    }
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
      const std::string stat = testing::ReadFileOrEmpty(e.path().string() + "/stat");
      const size_t paren = stat.rfind(')');
      if (paren == std::string::npos || paren + 2 >= stat.size() || stat[paren + 2] != 'D') {
        continue;
      }
      std::string cmd = testing::ReadFileOrEmpty(e.path().string() + "/cmdline");
      std::replace(cmd.begin(), cmd.end(), '\0', ' ');
      // A process of the run: this build's elevbench (the run, its disk daemon), or one working
      // in the run's folder (fio). Not any command line that names elevbench: a build beside
      // the tests (`ranlib libelevbench_app.a`, CI's sanitizer build) waits on its own disk.
      std::error_code ec;
      const std::filesystem::path exe = std::filesystem::read_symlink(e.path() / "exe", ec);
      const bool ours = (!ec && std::filesystem::equivalent(exe, ELEVBENCH_BINARY, ec) && !ec) ||
                        cmd.find(out_) != std::string::npos;
      EXPECT_FALSE(ours) << "a process of the run is in state D: " << e.path() << " " << cmd;
    }
    const std::map<std::string, std::string> after = MachineStateForFaults();
    for (const auto& [key, value] : before_) {
      auto it = after.find(key);
      if (it != after.end()) {
        EXPECT_EQ(it->second, value) << key;
      }
    }
  }

  std::unique_ptr<testing::ScopedTempDir> temp_;
  std::string dir_;
  std::string state_dir_;
  std::string out_;
  std::map<std::string, std::string> before_;
};

// How many cells of each status the results file holds.
inline std::map<std::string, size_t> CellStatuses(const nlohmann::json& j) {
  std::map<std::string, size_t> out;
  if (!j.contains("cells")) return out;
  for (const auto& c : j["cells"]) ++out[c.value("status", std::string("?"))];
  return out;
}

// The first cell error that contains `what` ("" when none does).
inline std::string CellErrorWith(const nlohmann::json& j, const std::string& what) {
  if (!j.contains("cells")) return "";
  for (const auto& c : j["cells"]) {
    const std::string e = c.value("error", std::string());
    if (e.find(what) != std::string::npos) return e;
  }
  return "";
}

}  // namespace elevbench
