#pragma once
// Facts about the machine and the target recorded in every results file's context block, so a
// number can always be traced back to the box, kernel, filesystem and fio that produced it.

#include <cstdint>
#include <string>

namespace elevbench {

/// Static facts about this machine, or about the machine a run emulates with `--machine`: the
/// suites size their loads by memory_bytes and cpus in Suite::Prepare (tiobench's 2×RAM), so
/// under `--machine p4-2003` they see 256 MB and one CPU, the limits the run is held to.
struct MachineInfo {
  std::string kernel;  ///< uname release, e.g. "6.18.44"
  std::string hostname;
  int cpus = 0;               ///< online CPUs (emulated: the cpuset's CPU count)
  std::string cpu_model;      ///< /proc/cpuinfo "model name"
  uint64_t memory_bytes = 0;  ///< MemTotal (emulated: the memory cgroup's limit)
  uint64_t swap_bytes = 0;    ///< SwapTotal (emulated: 0, the limit allows no swap)
  bool emulated = false;  ///< true when cpus/memory_bytes are `--machine` limits, not the host's
  std::string emulated_profile;  ///< the `--machine` profile ("p4-2003") or spec as given
};

/// Reads uname, /proc/cpuinfo and /proc/meminfo. Never fails: unknown fields stay empty/zero.
MachineInfo ReadMachineInfo();

/// The short kernel version used in table identifiers: the release up to the first '-'
/// ("6.18.44-fc-v595" → "6.18.44").
std::string ShortKernelVersion(const std::string& release);

/// The filesystem type and mount point holding `path`, from /proc/self/mountinfo (longest
/// matching mount point). False if the path does not exist.
[[nodiscard]] bool FilesystemOf(const std::string& path, std::string* fstype,
                                std::string* mountpoint, std::string* err);

/// Current UTC time as ISO 8601 ("2026-11-29T22:45:00Z").
std::string NowIso8601();

/// Decodes the octal escapes of /proc/self/mountinfo fields ("\\040" for a space).
std::string UnescapeMountField(const std::string& field);

/// True when running as root (euid 0).
bool RunningAsRoot();

/// This program's own path (/proc/self/exe), for the children that run elevbench again (the
/// disk daemon); "elevbench" when it cannot be read.
std::string SelfExecutablePath();

/// `echo 3 > /proc/sys/vm/drop_caches` without a sync: drops clean page cache, dentries and
/// inodes but leaves dirty data alone, so a running writer is not stalled by a global flush. For
/// evicting a probe's files (data and metadata) while a load runs. Needs root.
[[nodiscard]] bool DropCleanCaches(std::string* err);

}  // namespace elevbench
