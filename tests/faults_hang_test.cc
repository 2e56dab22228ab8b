// Faults that could hang the box (issue #28, docs/reliability.md "Faults survived"): a disk
// daemon that stops answering, a run killed while it does, someone else's tracing. Each is
// injected into a real run and checked for what the user gets, the clean machine, and no process
// of the run left in state D. Root only (loop devices, FUSE, tracefs).

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "fault_run.h"
#include "test_util.h"

namespace elevbench {
namespace {

// Writes `value` to a tracefs file; false when it cannot.
bool WriteTracingFile(const std::string& path, const std::string& value) {
  std::ofstream out(path);
  out << value << "\n";
  out.flush();
  return static_cast<bool>(out);
}

class FaultsHangRootTest : public FaultRunFixture {
 protected:
  void TearDown() override {
    // A daemon a failed test left stopped would hang the next test's I/O: continue it.
    if (stopped_daemon_ > 0) kill(stopped_daemon_, SIGCONT);
  }

  // Stops the journaled disk daemon (SIGSTOP) half a second into cell 2; true once done.
  bool StopTheDaemonInCell2(const std::string& line) {
    if (line.find("cell 2/") == std::string::npos) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // inside its fio
    const pid_t daemon = JournaledDaemonPid();
    if (daemon <= 0 || kill(daemon, SIGSTOP) != 0) return false;
    stopped_daemon_ = daemon;
    return true;
  }

  pid_t stopped_daemon_ = 0;
};

// The daemon stops answering (SIGSTOP) in the middle of a cell: the watch notices within 10 s,
// aborts the disk's FUSE connection so that nothing waits on it in state D, and the run restores
// and exits 1 saying so.
TEST_F(FaultsHangRootTest, ASigstoppedDiskDaemonIsAbortedAndTheRunStops) {
  if (!HaveFuse()) GTEST_SKIP() << "needs /dev/fuse";
  const FaultRun run = Run(
      {"tiobench", "--emulated", "ide-2003:512M", "--schedulers",
       "mq-deadline," + testing::SecondLiveScheduler(), "--size", "64", "--threads", "1,2",
       "--repetitions", "2", "--timeout", "600"},
      [&](const std::string& line, pid_t) { return StopTheDaemonInCell2(line); }, false, 300);
  ASSERT_GT(stopped_daemon_, 0) << run.stderr_text;
  EXPECT_EQ(run.exit_code, 1) << run.stderr_text;
  const double noticed = run.SecondsUntilLine("the emulated disk daemon stopped answering");
  EXPECT_GE(noticed, 0) << run.stderr_text;
  EXPECT_LT(noticed, 10) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("was aborted"), std::string::npos) << run.stderr_text;
  EXPECT_LT(run.seconds_after_fault, 60) << "restored late: " << run.stderr_text;
  const nlohmann::json j = Results();
  EXPECT_FALSE(j.value("complete", true));
  EXPECT_GE(CellStatuses(j)["ok"], 1u);
  ExpectCleanMachine();
}

// The run is SIGKILLed while its daemon is stopped (its fio then sleeps in state D on the disk):
// `elevbench restore` continues the daemon, tears everything down within 30 s and leaves nothing.
TEST_F(FaultsHangRootTest, RestoreAfterARunKilledWhileItsDaemonWasStoppedFinishesWithin30s) {
  if (!HaveFuse()) GTEST_SKIP() << "needs /dev/fuse";
  const FaultRun run = Run(
      {"tiobench", "--emulated", "ide-2003:512M", "--schedulers",
       "mq-deadline," + testing::SecondLiveScheduler(), "--size", "64", "--threads", "1,2",
       "--repetitions", "2", "--timeout", "600"},
      [&](const std::string& line, pid_t pid) {
        return StopTheDaemonInCell2(line) && kill(pid, SIGKILL) == 0;
      },
      false, 300);
  ASSERT_GT(stopped_daemon_, 0) << run.stderr_text;
  EXPECT_EQ(run.exit_code, -SIGKILL) << run.stderr_text;
  const auto started = FaultClock::now();
  const FaultRun restore = RunElevbench({ELEVBENCH_BINARY, "restore"}, nullptr, 120);
  const double seconds = std::chrono::duration<double>(FaultClock::now() - started).count();
  EXPECT_EQ(restore.exit_code, 0) << restore.stderr_text;
  EXPECT_LT(seconds, 30) << restore.stderr_text;
  ExpectCleanMachine();
}

// Someone else's global tracer: `--trace-requests full` needs the global blk tracer, so a tracer
// other than nop is refused with one line and exit 2 before anything is made.
TEST_F(FaultsHangRootTest, AGlobalTracerThatIsNotNopRefusesTraceFullBeforeAnythingIsMade) {
  std::string tracing;
  for (const char* dir : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    if (std::filesystem::exists(std::string(dir) + "/current_tracer")) {
      tracing = dir;
      break;
    }
  }
  // Where tracefs is not mounted, the test mounts it (as the other tracer's user would have)
  // and unmounts it at the end.
  bool mounted_here = false;
  if (tracing.empty()) {
    tracing = "/sys/kernel/tracing";
    mounted_here =
        mount("nodev", tracing.c_str(), "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
    if (!mounted_here) GTEST_SKIP() << "tracefs is not mounted and cannot be mounted";
  }
  struct UnmountAtEnd {
    std::string path;
    bool active;
    ~UnmountAtEnd() {
      if (active) umount2(path.c_str(), MNT_DETACH);
    }
  } unmount_at_end{tracing, mounted_here};
  const std::string tracer_path = tracing + "/current_tracer";
  const std::string available = testing::ReadFileOrEmpty(tracing + "/available_tracers");
  ASSERT_EQ(testing::ReadFileOrEmpty(tracer_path), "nop\n") << "the machine's tracer is in use";
  // The first tracer other than nop that this kernel lets us select (function tracing may be
  // listed and still refused, as in some VMs).
  std::string other;
  for (const char* t : {"function", "wakeup", "blk"}) {
    if ((" " + available + " ").find(std::string(" ") + t + " ") != std::string::npos &&
        WriteTracingFile(tracer_path, t)) {
      other = t;
      break;
    }
  }
  if (other.empty()) GTEST_SKIP() << "no tracer but nop can be selected: " << available;
  const FaultRun run = Run({"tiobench", "--scratch", "512M", "--schedulers", "mq-deadline",
                            "--size", "8", "--threads", "1", "--trace-requests", "full"},
                           nullptr, false, 120);
  const std::string tracer_after = testing::ReadFileOrEmpty(tracer_path);
  EXPECT_TRUE(WriteTracingFile(tracer_path, "nop"));
  EXPECT_EQ(tracer_after, other + "\n") << "the run changed someone else's tracer";
  EXPECT_EQ(run.exit_code, 2) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("current_tracer is '" + other + "'"), std::string::npos)
      << run.stderr_text;
  EXPECT_EQ(run.stderr_text.find("building"), std::string::npos) << run.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(out_));
  ExpectCleanMachine();
}

// Someone removes the run's tracefs instance between two cells (while a cell reads its
// trace_pipe the kernel refuses with EBUSY): the cells after it are marked "not traced" with the
// reason, every cell still runs, and the run ends normally.
TEST_F(FaultsHangRootTest, ATracefsInstanceRemovedMidRunMarksTheTracesIncompleteAndTheRunGoesOn) {
  std::atomic<bool> removed{false};
  std::atomic<bool> done{false};
  std::thread remover;
  const FaultRun run = Run(
      {"tiobench", "--scratch", "512M", "--schedulers", "mq-deadline,none", "--size", "8",
       "--threads", "1", "--random", "100", "--repetitions", "2", "--trace-requests", "summary"},
      [&](const std::string& line, pid_t pid) {
        if (line.find("cell 1/") == std::string::npos) return false;
        remover = std::thread([&, pid] {
          for (int i = 0; i < 60000 && !removed && !done; ++i) {
            for (const char* tracing : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
              const std::string instance =
                  std::string(tracing) + "/instances/elevbench-" + std::to_string(pid);
              if (rmdir(instance.c_str()) == 0) removed = true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
        });
        return true;
      },
      false, 300);
  done = true;
  if (remover.joinable()) remover.join();
  ASSERT_TRUE(removed) << "the instance was never free to remove:\n" << run.stderr_text;
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
  const nlohmann::json j = Results();
  EXPECT_EQ(CellStatuses(j)["ok"], 4u) << run.stderr_text;
  size_t incomplete = 0;
  std::string problem;
  for (const auto& c : j["cells"]) {
    if (!c.contains("request_trace") || c["request_trace"].value("complete", true)) continue;
    ++incomplete;
    problem = c["request_trace"].value("problem", std::string());
  }
  EXPECT_GE(incomplete, 1u) << j.dump(1);
  EXPECT_TRUE(problem.rfind("not traced: ", 0) == 0 ||
              problem.find("vanished") != std::string::npos)
      << problem;
  ExpectCleanMachine();
}

}  // namespace
}  // namespace elevbench
