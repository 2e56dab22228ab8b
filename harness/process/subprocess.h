#pragma once
// Runs child programs (fio, mkfs, mount helpers, foreground probes) with fork/exec and wait4, so
// every child's exact wall time and resource use (rusage) is known. One error style: bool + err
// line. ChildProcess runs one child asynchronously (a background load beside a probe);
// RunProcess is ChildProcess started and waited for.
//
// Every child: its own process group (pgid = pid), PR_SET_PDEATHSIG(SIGKILL) (it dies with
// elevbench, and exits at once if elevbench is already gone), SIGINT/SIGTERM/SIGHUP/SIGPIPE at
// their defaults and no signal blocked, stdin from /dev/null, no descriptor but 0-2 (close_range).
// Its group is registered with
// interrupt.h while it runs, so SIGINT/SIGTERM/SIGHUP to elevbench are forwarded as SIGTERM.

#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/process_usage.h"

namespace elevbench {

/// Where a child runs as far as I/O goes (`run --controls`, docs/controls.md): set in the child
/// between fork and exec, so that the program and everything it forks (fio's jobs) start there,
/// before their first I/O.
struct ProcessPlacement {
  /// ioprio_set(2)'s value for the child (class << 13 | level); -1 leaves the parent's.
  int ioprio = -1;
  /// cgroup.procs files (paths as the child opens them) the child writes "0" to: itself.
  std::vector<std::string> cgroup_procs;
  bool empty() const { return ioprio < 0 && cgroup_procs.empty(); }
};

/// How to run one child.
struct ProcessOptions {
  /// File that receives the child's stdout (created or truncated; "/dev/null" works); empty =
  /// capture into ProcessResult::output.
  std::string stdout_path;
  /// Capture stderr into ProcessResult::error_output (else it goes to /dev/null).
  bool capture_stderr = true;
  /// Stop the child (SIGTERM, then SIGKILL after kill_grace_seconds) once it has run this many
  /// seconds; 0 = no limit. Enforced while the owner calls ChildProcess::running/Wait/Stop.
  double timeout_seconds = 0;
  /// Seconds between SIGTERM and SIGKILL when the child is stopped for a timeout or an interrupt.
  double kill_grace_seconds = 5;
  /// Working directory for the child; empty = inherit.
  std::string working_directory;
  /// Its cgroups and I/O priority; a failure to apply it fails Start ("cannot place X: …").
  ProcessPlacement placement;
};

/// The bytes a running process has asked read() for so far (rchar of /proc/<pid>/io: page
/// cache hits included); 0 when it cannot be read, because the process is gone.
uint64_t ProcessReadChars(pid_t pid);

/// What a finished child did. Resource use is wait4's rusage: the child plus the descendants it
/// waited for.
struct ProcessResult {
  int exit_code = -1;        ///< exit status, or -1 when killed by a signal
  int term_signal = 0;       ///< signal that ended the child, 0 if it exited
  bool timed_out = false;    ///< stopped because it ran past ProcessOptions::timeout_seconds
  bool interrupted = false;  ///< an interrupt (interrupt.h) arrived while it ran
  /// Its resource use, filled once at the reap from wait4's rusage. usage.elapsed_seconds is the
  /// wall time, CLOCK_MONOTONIC from just before fork to the reap; it is also set when wait4
  /// failed or the child was abandoned (it outlived SIGKILL by 20 s), whose counts then stay 0.
  ProcessUsage usage;
  std::string output;  ///< stdout, when not redirected to a file (its first 1 MiB; more is dropped)
  std::string error_output;  ///< stderr, when captured: its last 64 KiB exactly
};

/// One child process, run asynchronously. Movable, not copyable; used from one thread at a time.
/// The destructor of a ChildProcess whose child still runs sends SIGKILL to its group and reaps
/// it, within the same bound as Stop.
///
/// Captured output is read only inside running(), Wait() and Stop(); a child that writes more
/// than a pipe holds (64 KiB) blocks until one of them is called. After the reap, output that is
/// already in the pipes is kept; descendants that still hold the pipes are not waited for.
class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Starts argv[0] (searched in PATH) with `options`. Returns true once the program is executing.
  /// Returns false, with every descriptor closed and any forked child reaped, when it could not be
  /// started: a pipe, /dev/null, the stdout file or fork failed ("fork: <strerror>"), the working
  /// directory cannot be entered ("cannot enter working directory D for X: <strerror>"), exec
  /// failed ("cannot execute X: <strerror>"), or kMaxChildGroups children are already registered.
  /// Refused while an earlier child of this object still runs.
  [[nodiscard]] bool Start(const std::vector<std::string>& argv, const ProcessOptions& options,
                           std::string* err);

  /// The child's pid (= its process group), also after the reap; 0 before Start succeeded.
  pid_t pid() const { return pid_; }

  /// Non-blocking: drains captured pipes, applies the timeout and interrupt rules (see Wait) and
  /// reaps the child if it exited. True while it runs; false before Start, after the reap, or when
  /// waiting for it failed (Wait and Stop then return false with the reason).
  bool running();

  /// Waits up to timeout_seconds (< 0: without limit) for the child to exit, draining captured
  /// pipes meanwhile, and reaps it. True when it has exited and result() is final. False with
  /// "pid N still running after S s" when the time ran out (the child keeps running), or with the
  /// reason when waiting failed. While waiting: when options.timeout_seconds has passed, or within
  /// 100 ms of an interrupt (interrupt.h), it stops the child as Stop(options.kill_grace_seconds)
  /// and sets result().timed_out or result().interrupted.
  [[nodiscard]] bool Wait(double timeout_seconds, std::string* err);

  /// Sends SIGTERM to the child's group, SIGKILL after grace_seconds if the child still runs, and
  /// reaps it. Group members still alive when the child dies get SIGKILL too. True with result()
  /// filled; true at once if the child already exited. Bounded: a child still there 10 s after
  /// SIGKILL is in an uninterruptible wait, so the stuck I/O is broken (core/stuck_io.h: the
  /// emulated disk's FUSE connection aborted); 10 s later again it is abandoned, false with
  /// "pid N (fio) did not exit 20 s after SIGKILL …". Wait and running() apply the same rule.
  [[nodiscard]] bool Stop(double grace_seconds, std::string* err);

  /// The result; final once running() returned false after Start (or Wait/Stop returned true).
  const ProcessResult& result() const { return result_; }

  /// Blocks until one of `children` that still runs exits, or `max_seconds` pass, whichever
  /// comes first, without reaping (the caller's next running() reaps it); returns at once when
  /// none runs, early on a signal. For callers that sample their children on a timer (a probe's
  /// bytes read): sleeping the period instead would reap a child only at the next sample, so its
  /// wall time, taken at the reap, would be rounded up to the period (by up to 50 ms for the
  /// probes, which made a 0.36 s program read 0.36 or 0.41 s). Waits on each child's pidfd; a
  /// child without one (kernels before 5.3) shortens the wait to 10 ms.
  static void AwaitAnyExit(const std::vector<ChildProcess*>& children, double max_seconds);

 private:
  enum class State { kIdle, kRunning, kExited };
  bool Step(std::string* err);     // one non-blocking round: drain, reap, timeout/interrupt/kill
  void Abandon(std::string* err);  // the child outlived SIGKILL by 20 s: give up on it
  std::string Describe() const;    // "pid N (fio)"
  void BeginStop(double grace_seconds, double now);
  bool Reap(std::string* err);
  void Drain();
  void CloseAll();
  void KillAndReap();

  State state_ = State::kIdle;
  pid_t pid_ = 0;
  int pidfd_ = -1;   // readable when the child exits; -1 = poll on a short timer instead
  int out_fd_ = -1;  // read ends of the captured pipes
  int err_fd_ = -1;
  double started_at_ = 0;
  double timeout_seconds_ = 0;
  double kill_grace_seconds_ = 5;
  bool stopping_ = false;  // SIGTERM sent; SIGKILL due at kill_at_
  bool killed_ = false;
  bool broke_ = false;  // BreakStuckIo called for a child that outlived SIGKILL
  double kill_at_ = 0;
  double killed_at_ = 0;
  std::string name_;  // argv[0], for messages
  std::string wait_error_;
  ProcessResult result_;
};

/// Runs argv[0] (searched in PATH) and waits for it: ChildProcess::Start, then Wait without
/// limit. Returns false only when the child could not be started or waited for (err says why); a
/// child that fails is a true return with its exit_code (127 included) or term_signal. Timeouts
/// and interrupts are in the result (timed_out, interrupted).
[[nodiscard]] bool RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options,
                              ProcessResult* result, std::string* err);

/// Convenience: runs argv and returns true only if it exited 0 within 600 s (mkfs, mount, losetup:
/// a tool blocked on a stuck disk is stopped, never waited on forever); err gets the command's
/// name and the last line of its stderr otherwise.
[[nodiscard]] bool RunChecked(const std::vector<std::string>& argv, std::string* output,
                              std::string* err);

/// True if `program` is an executable in PATH.
bool ProgramInPath(const std::string& program);

/// The last non-empty line of `text` (for one-line error messages from tools' stderr).
std::string LastLine(const std::string& text);

/// How a reaped child ended, for a message: "signal 9" when a signal ended it, else "exit 3".
std::string HowItEnded(const ProcessResult& result);

}  // namespace elevbench
