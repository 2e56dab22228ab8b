#pragma once
// The emulated rotating disk as a run target: backing file on a private tmpfs (so the host's
// page cache cannot distort the model), the `elevbench disk` FUSE daemon serving it, a loop device
// with direct I/O on the FUSE file, and a filesystem on the loop device mounted privately. Every
// piece is journaled, so RestoreAll() — normal end, signal, or the next run after SIGKILL —
// tears all of it down.

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/disk/disk_model.h"
#include "harness/device/restore_journal.h"

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
};

/// Parses "--emulated PROFILE[:SIZE]" into the options.
[[nodiscard]] bool ParseEmulatedSpec(const std::string& spec, EmulatedOptions* options,
                                     std::string* err);

/// Queue attributes the model needs pinned on the loop device for `profile` (legacy profiles:
/// rotational=1, read_ahead_kb=128, max_sectors_kb=128 — with 1 MiB readahead the seek effect
/// mostly vanishes; see shared/docs/emulated-disk-notes.md).
std::vector<std::pair<std::string, std::string>> EmulatedQueueAttrs(const DiskProfile& profile);

/// Global VM writeback limits for the run ("/proc/sys/vm/dirty_bytes" …): a 2003 box had 256 MB
/// of RAM, so buffered writers hit writeback during a phase instead of filling 24 GiB of cache.
std::vector<std::pair<std::string, std::string>> EmulatedVmSettings();

/// Builds the stack. Needs root and /dev/fuse.
[[nodiscard]] bool CreateEmulatedStack(const EmulatedOptions& options, RestoreJournal* journal,
                                       EmulatedStack* stack, std::string* err);

/// Reads the daemon's live counters (stats.json).
[[nodiscard]] bool ReadDiskCounters(const EmulatedStack& stack, nlohmann::json* counters,
                                    std::string* err);

/// Applies the VM settings, journaling the original limits first (the ratio when the bytes
/// setting is 0, since writing a ratio resets its bytes twin and vice versa).
[[nodiscard]] bool ApplyVmSettings(const Sysfs& sysfs, RestoreJournal* journal,
                                   const std::vector<std::pair<std::string, std::string>>& values,
                                   std::string* err);

}  // namespace elevbench
