#pragma once
// The emulated rotating disk as a run target: backing file on a private tmpfs (so the host's
// page cache cannot distort the model), the `elevbench disk` FUSE daemon serving it, a loop device
// created for the run with direct I/O on the FUSE file, and a filesystem on the loop device mounted
// privately. The loop device's queue is set up so that the kernel's elevator decides the order of
// the disk's requests: the profile's driver tags (4 for ide-2003 instead of loop's 128),
// writeback throttling off (unless kept), 2003-sized requests and readahead. Every piece is
// journaled, so RestoreAll() — normal end, signal, or the next run after SIGKILL — tears all of
// it down.

#include <sys/types.h>

#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/device/restore_journal.h"
#include "harness/disk/disk_model.h"

namespace elevbench {

/// What to build.
struct EmulatedOptions {
  std::string profile_name = "ide-2003";
  std::vector<std::string> overrides;  ///< "key=value" model parameters
  uint64_t size_bytes = 2ULL << 30;
  std::string fs = "ext4";
  std::string base_dir = "/var/tmp";
  std::string trace_path;  ///< per-request trace of the daemon; empty = none
  std::string self_exe;    ///< this elevbench binary (runs `disk serve`)
  /// Keep today's writeback throttling (queue/wbt_lat_usec as the kernel set it). By default it
  /// is turned off (wbt_lat_usec=0): it did not exist in 2003, and it hides the starvation of a
  /// reader beside a buffered writer that the 2003 measurements show.
  bool keep_wbt = false;
};

/// What was built.
struct EmulatedStack {
  DiskProfile profile;
  std::string work_dir;
  std::string backing_path;  ///< on tmpfs
  std::string fuse_dir;      ///< FUSE mount: disk.img, stats.json
  std::string loop_device;   ///< "/dev/loopN"
  std::string loop_name;
  std::string mountpoint;  ///< filesystem on the loop device
  pid_t daemon_pid = 0;
  std::string daemon_log;
  /// The FUSE connection of fuse_dir (/sys/fs/fuse/connections/N), journaled.
  unsigned fuse_connection = 0;
  /// Driver tags in force on the loop device after creation, as read from debugfs; -1 when the
  /// profile leaves them (driver_tags 0) and debugfs could not be read.
  int driver_tags = -1;
  /// Whether debugfs showed the driver tags after they were set; false on a kernel without
  /// blk-mq debugfs (driver_tags.h), where the daemon's max_queue_depth is the only check.
  bool driver_tags_read_back = true;
  bool keep_wbt = false;
  /// queue/wbt_lat_usec after creation: "0" unless keep_wbt; empty when the kernel has no
  /// writeback throttling.
  std::string wbt_lat_usec;
  /// The queue attributes pinned on the loop device, in write order. Pass them to
  /// DeviceControl::PinQueueAttrs (EmulatedQueueAttrs(stack)) so they hold across switches.
  std::vector<std::pair<std::string, std::string>> queue_attrs;
};

/// Parses "--emulated PROFILE[:SIZE]" into the options.
[[nodiscard]] bool ParseEmulatedSpec(const std::string& spec, EmulatedOptions* options,
                                     std::string* err);

/// Queue attributes the model needs pinned on the loop device for `profile`, in write order:
/// rotational (1 for spinning profiles), max_sectors_kb=128 (spinning), wbt_lat_usec=0 (unless
/// `keep_wbt`), read_ahead_kb=128 (spinning) last, because every limits write (max_sectors_kb,
/// rotational) makes the kernel recompute it. With 1 MiB readahead the seek effect mostly
/// vanishes; see docs/emulated-disk.md.
std::vector<std::pair<std::string, std::string>> EmulatedQueueAttrs(const DiskProfile& profile,
                                                                    bool keep_wbt = false);

/// The attributes CreateEmulatedStack pinned (stack.queue_attrs): the list to hand to
/// DeviceControl::PinQueueAttrs so that every scheduler switch re-applies and re-checks them.
std::vector<std::pair<std::string, std::string>> EmulatedQueueAttrs(const EmulatedStack& stack);

/// The emulated queue settings in force, for the results context, e.g.
/// {"loop_device":"/dev/loop8","driver_tags":4,"writeback_throttling":"off","wbt_lat_usec":0,
///  "rotational":1,"max_sectors_kb":128,"read_ahead_kb":128}. "writeback_throttling" is "off" or
/// "kept" (EmulatedOptions::keep_wbt; wbt_lat_usec then shows the kernel's value, and bfq still
/// turns it off while it is selected). Unknown numbers are null.
nlohmann::json EmulatedQueueSettingsJson(const EmulatedStack& stack);

/// The 2003 box's writeback limits: it had 256 MB of RAM, so buffered writers hit writeback
/// during a phase instead of filling 24 GiB of cache. 48 MB may be dirty, writeback starts at 16.
inline constexpr uint64_t kEmulatedDirtyBytes = 48ULL << 20;
inline constexpr uint64_t kEmulatedDirtyBackgroundBytes = 16ULL << 20;

/// kEmulatedDirtyBytes and kEmulatedDirtyBackgroundBytes as the global VM settings
/// ("/proc/sys/vm/dirty_bytes" …), for ApplyVmSettings and the results context.
std::vector<std::pair<std::string, std::string>> EmulatedVmSettings();

/// Builds the stack. Needs root and /dev/fuse.
[[nodiscard]] bool CreateEmulatedStack(const EmulatedOptions& options, RestoreJournal* journal,
                                       EmulatedStack* stack, std::string* err);

/// Whether the stack's disk daemon has exited; *why then says how, from the line its watcher
/// appends to the log (StartDetachedDaemon): "the emulated disk daemon died (signal 9)", or
/// "... exited (status N): <its last log line>". Waits up to 0.5 s for that line.
bool EmulatedDaemonGone(const EmulatedStack& stack, std::string* why);

/// Whether the stack's disk daemon still answers, for the target watch (run/target_watch.h),
/// which asks every 250 ms. Thread-safe (the session asks too, after a failed cell).
class DaemonLiveness {
 public:
  /// How long the daemon may be stopped (state T: SIGSTOP, a debugger) before it counts as silent.
  static constexpr double kStoppedGraceSeconds = 2;
  /// How often it is asked a statfs, and how long it gets to answer (a deadlocked daemon).
  static constexpr double kProbePeriodSeconds = 2;
  static constexpr double kAnswerSeconds = 5;

  /// True once the daemon has been stopped for kStoppedGraceSeconds, or did not answer a statfs
  /// within kAnswerSeconds: then its FUSE connection is aborted (so nothing of the run waits on it
  /// in state D) and *why says "the emulated disk daemon stopped answering (…); its FUSE
  /// connection N was aborted". Stays true afterwards. A dead daemon is EmulatedDaemonGone's.
  bool Silent(const EmulatedStack& stack, std::string* why);

 private:
  std::mutex mu_;
  double stopped_since_ = -1;
  double last_probe_ = -1;
  std::string why_;
};

/// The cause of a failed cell that the emulated disk's counters over that cell (a CounterDelta
/// of stats.json) show: "I/O error on the emulated disk after N MB" when an injected fault
/// (--disk-set fail_after_mb / fail_rate) failed a request; empty otherwise.
std::string DiskFailureCause(const nlohmann::json& cell_counters);

/// Reads the daemon's live counters (stats.json).
[[nodiscard]] bool ReadDiskCounters(const EmulatedStack& stack, nlohmann::json* counters,
                                    std::string* err);

/// Applies the VM settings, journaling the original limits first (the ratio when the bytes
/// setting is 0, since writing a ratio resets its bytes twin and vice versa). The settings are
/// machine-wide, so the process first takes a machine-wide lock (flock on
/// /run/elevbench-vm-settings.lock; under a fake sysfs root, <root>/vm-settings.lock) and holds
/// it until it exits: two runs with different state directories would otherwise journal each
/// other's values as "original" and the later restore would leave 48 MB limits behind (seen on
/// this machine). A second run fails with a one-line error instead.
[[nodiscard]] bool ApplyVmSettings(const Sysfs& sysfs, RestoreJournal* journal,
                                   const std::vector<std::pair<std::string, std::string>>& values,
                                   std::string* err);

}  // namespace elevbench
