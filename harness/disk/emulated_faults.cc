// What the run learns when the emulated disk fails under it: a daemon that died (and how, from
// its watcher's line in the log) and requests failed by an injected fault (stats.json).

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <thread>

#include "harness/core/atomic_file.h"
#include "harness/core/json_fields.h"
#include "harness/device/fuse_connection.h"
#include "harness/device/journal_undo.h"
#include "harness/disk/daemon_start.h"
#include "harness/disk/emulated_stack.h"
#include "harness/process/subprocess.h"

namespace elevbench {

bool EmulatedDaemonGone(const EmulatedStack& stack, std::string* why) {
  if (stack.daemon_pid <= 0 || kill(stack.daemon_pid, 0) == 0 || errno != ESRCH) return false;
  // The watcher appends its line right after it reaped the daemon: give it a moment.
  std::string log, ignored;
  for (int i = 0; i < 10; ++i) {
    (void)ReadWholeFile(stack.daemon_log, &log, &ignored);
    if (log.find("elevbench disk daemon: ") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const size_t at = log.rfind(kDaemonKilledBySignal);
  int sig = 0;
  if (at != std::string::npos &&
      std::sscanf(log.c_str() + at + sizeof kDaemonKilledBySignal - 1, "%d", &sig) == 1) {
    *why = "the emulated disk daemon died (signal " + std::to_string(sig) + ")";
  } else {
    const std::string last = LastLine(log);
    *why = "the emulated disk daemon exited" + (last.empty() ? "" : ": " + last);
  }
  return true;
}

namespace {

double LivenessClockSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool DaemonStopped(pid_t pid) {
  uint64_t start = 0;
  std::string comm;
  char state = '?';
  return ReadProcStat(pid, &start, &comm, &state) && (state == 'T' || state == 't');
}

}  // namespace

bool DaemonLiveness::Silent(const EmulatedStack& stack, std::string* why) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!why_.empty()) {
    *why = why_;
    return true;
  }
  if (stack.daemon_pid <= 0 || stack.fuse_dir.empty()) return false;
  const double now = LivenessClockSeconds();
  std::string how;
  if (DaemonStopped(stack.daemon_pid)) {
    if (stopped_since_ < 0) stopped_since_ = now;
    if (now - stopped_since_ >= kStoppedGraceSeconds) how = "stopped by a signal";
  } else {
    stopped_since_ = -1;
    if (last_probe_ < 0 || now - last_probe_ >= kProbePeriodSeconds) {
      last_probe_ = now;
      if (!FuseDaemonAnswers(stack.fuse_dir, kAnswerSeconds)) {
        how = "no answer to a statfs within " + std::to_string(static_cast<int>(kAnswerSeconds)) +
              " s";
      }
    }
  }
  if (how.empty()) return false;
  std::string abort_err;
  const std::string conn = std::to_string(stack.fuse_connection);
  const bool aborted = AbortFuseConnection(stack.fuse_connection, &abort_err);
  why_ = "the emulated disk daemon stopped answering (pid " + std::to_string(stack.daemon_pid) +
         ", " + how + "); " +
         (aborted ? "its FUSE connection " + conn + " was aborted"
                  : "aborting its FUSE connection " + conn + " failed: " + abort_err);
  *why = why_;
  return true;
}

std::string DiskFailureCause(const nlohmann::json& cell_counters) {
  uint64_t failed = 0;
  uint64_t after_bytes = 0;
  std::string ignored;
  if (!cell_counters.is_object() ||
      !GetOptionalJsonField(cell_counters, "failed_requests", &failed, &ignored) || failed == 0) {
    return "";
  }
  (void)GetOptionalJsonField(cell_counters, "first_failure_after_bytes", &after_bytes, &ignored);
  return "I/O error on the emulated disk after " +
         std::to_string((after_bytes + 500'000) / 1'000'000) + " MB";
}

}  // namespace elevbench
