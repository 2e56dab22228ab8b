#pragma once
// One guest's life (docs/kernels.md): the initramfs written, the two virtiofsd daemons and QEMU
// started, each journaled before the next step (a SIGKILL of the run leaves nothing that
// `restore` cannot remove, and every child dies with the run: PR_SET_PDEATHSIG), the guest
// followed through its console and its command's log, and stopped at its deadline. Nothing
// here waits without a deadline: a guest that does not start, panics, or stops making progress
// is stopped and its console's last lines say why.

#include <functional>
#include <memory>
#include <string>

#include "harness/device/restore_journal.h"
#include "harness/guest/guest_boot.h"
#include "harness/process/subprocess.h"

namespace elevbench {

/// A guest's deadlines.
struct GuestLimits {
  double start_seconds = 300;  ///< boot to the init script's started marker
  /// Neither the console nor the command's log grew for this long: the guest is stopped. The
  /// command prints a line at least every cell, so a stall is a hung guest.
  double stall_seconds = 1800;
  double total_seconds = 0;  ///< the whole guest; 0: no bound but the stall
};

/// How a guest ended.
struct GuestOutcome {
  bool started = false;      ///< the init script reached the command
  bool exited = false;       ///< the command ended and the guest said so
  int exit_code = -1;        ///< the command's, when exited
  std::string facts;         ///< the started marker's: "cpus=2 MemTotal: 4021028 kB"
  std::string failure;       ///< why the guest failed (one line); empty when the command ended
  std::string console_tail;  ///< the console's last lines, for a failure's message
  double wall_seconds = 0;   ///< boot to power-off
  /// kCpuProbeLoop's time in the guest, from /proc/uptime (10 ms steps); 0 when not measured.
  double cpu_probe_seconds = 0;
  bool interrupted = false;  ///< SIGINT/SIGTERM reached the run while the guest ran
};

/// The console's last `lines` non-empty lines, control characters removed, joined by " | ".
std::string ConsoleTail(const std::string& console_text, size_t lines);

/// Reads the markers of the console's text into `outcome` (started, exited, exit_code, facts,
/// and a failure the init script reported).
void ReadGuestMarkers(const std::string& console_text, GuestOutcome* outcome);

class GuestResources;

/// One guest, followed step by step so that several can run at once (`--kernels` with
/// `--lanes`). Start, then Poll until it returns false, then Finish. Not copyable; destroying a
/// started guest stops it and removes its files.
class GuestVm {
 public:
  /// The guest's files (the initramfs, the sockets) will live in `scratch_dir`, made and
  /// removed here; every process and file is journaled in `journal` as it is made.
  GuestVm(RestoreJournal* journal, std::string scratch_dir);
  ~GuestVm();
  GuestVm(const GuestVm&) = delete;
  GuestVm& operator=(const GuestVm&) = delete;

  /// Writes the initramfs, starts both virtiofsd (waiting up to 10 s for each socket) and QEMU.
  /// False with one line when the guest could not be started (what was made is removed).
  [[nodiscard]] bool Start(const GuestRun& run, const GuestLimits& limits, std::string* err);

  /// One non-blocking look: every new line of the command's log to `on_log_line`, the deadlines
  /// applied (a guest past one is stopped). True while the guest runs.
  bool Poll(const std::function<void(const std::string& line)>& on_log_line);

  /// QEMU, for ChildProcess::AwaitAnyExit over the guests in flight.
  ChildProcess* qemu();

  /// After Poll returned false: how the guest ended (the console is kept as
  /// `run.work_dir`/console.log); the processes are stopped and the files removed.
  GuestOutcome Finish();

 private:
  RestoreJournal* journal_;
  std::string scratch_dir_;
  GuestRun run_;
  GuestLimits limits_;
  std::string console_;
  std::unique_ptr<GuestResources> resources_;
  std::unique_ptr<ChildProcess> host_fs_, work_fs_, qemu_;
  GuestOutcome outcome_;
  double start_ = 0, last_growth_ = 0;
  uint64_t seen_bytes_ = 0, log_offset_ = 0;
};

/// Boots `run` and follows it to its end: GuestVm's steps in one call. False only when the
/// guest could not be started (err: one line); how a started guest ended is in *outcome.
[[nodiscard]] bool RunGuest(const GuestRun& run, const GuestLimits& limits,
                            const std::string& scratch_dir, RestoreJournal* journal,
                            const std::function<void(const std::string& line)>& on_log_line,
                            GuestOutcome* outcome, std::string* err);

}  // namespace elevbench
