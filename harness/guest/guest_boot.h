#pragma once
// What boots a guest (docs/kernels.md): the initramfs (busybox, the init script, the modules the
// guest needs to reach the host's files) and the command lines of QEMU and of the two virtiofsd
// daemons. The guest sees the host's root read-only (share "host") and one writable directory
// of the run (share "work"); it loads the kernel's own modules from the cache, chroots into the
// host's root with private /tmp, /var/tmp and /run, and runs the same elevbench binary with the
// run's own arguments, so no suite knows it is in a guest. Pure text and argument vectors here;
// the processes are guest_vm.h's.

#include <cstdint>
#include <string>
#include <vector>

#include "harness/guest/kernel_cache.h"

namespace elevbench {

/// The console lines the init script prints, which the host reads to follow the guest.
inline constexpr char kGuestStartedMarker[] = "ELEVBENCH-GUEST-STARTED";
inline constexpr char kGuestExitMarker[] = "ELEVBENCH-GUEST-EXIT";
inline constexpr char kGuestFailedMarker[] = "ELEVBENCH-GUEST-FAILED";
inline constexpr char kGuestCpuMarker[] = "ELEVBENCH-GUEST-CPU";

/// A fixed piece of CPU work for busybox's sh, timed in the guest (before its command) and on
/// the host, so a run says how much slower the guest's CPU is (TCG translates every
/// instruction): 500,000 turns of a shell loop, about 0.6 s on this project's machines.
inline constexpr char kCpuProbeLoop[] = "i=0; while [ $i -lt 500000 ]; do i=$((i+1)); done";

/// What one guest runs.
struct GuestRun {
  CachedKernel kernel;
  /// The command run in the guest, inside the host's root: argv[0] an absolute path.
  std::vector<std::string> argv;
  std::string working_directory;  ///< absolute; the command's cwd (the host's own path)
  std::string work_dir;  ///< absolute host directory shared writable, at the same path inside
  std::string log_path;  ///< inside work_dir: the command's stdout and stderr
  int cpus = 1;          ///< vCPUs
  uint64_t memory_mib = 2048;
  bool kvm = false;  ///< -accel kvm (a KVM that runs stock kernels), else TCG
  /// Under TCG: QEMU's instruction clock (-icount shift=0, one thread, one vCPU), so guest time
  /// is one nanosecond an executed instruction, and the seconds the host spends translating
  /// them are not the guest's. Without it the guest's clock is the host's and every request
  /// carries TCG's 15-23x CPU cost (docs/kernels.md, "What TCG costs"). The caller sets cpus
  /// to 1: QEMU 7.2 under -icount hangs bringing up a second vCPU ("Booting SMP configuration").
  bool instruction_clock = false;
};

/// The guest's private mount ("/tmp", "/var/tmp" or "/run") that hides host `path` (relative to
/// `working_directory`, and through its symbolic links) from the command in the guest, or ""
/// when the guest sees it: the command's binary's folder and its working directory, bound back
/// when under one of them, and what is below them, stay seen.
std::string GuestPrivateMountOf(const std::string& path, const std::string& binary,
                                const std::string& working_directory);

/// `s` quoted for the init script's sh: '…' with every ' written '\''.
std::string ShellQuote(const std::string& s);

/// The init script (/init of the initramfs, busybox sh): mounts, the host share read-only, the
/// kernel's modules bound from the cache (loop, fuse, the schedulers), the chroot's private
/// mounts, then the command, and `poweroff -f`. It prints kGuestStartedMarker before the
/// command, and kGuestExitMarker with the command's exit code after it; kGuestFailedMarker and a
/// reason when a step before it fails.
std::string GuestInitScript(const GuestRun& run);

/// The modules of `release` (paths relative to its lib/modules/<release>, dependencies first)
/// that the initramfs must hold to mount the host's share: virtio_pci and virtiofs with what they
/// need, read from `modules_dep_text` (modules.dep). Built-in modules are not listed.
std::vector<std::string> InitramfsModules(const std::string& modules_dep_text);

/// Writes the initramfs of `run` (an uncompressed newc cpio, which every kernel takes) to
/// `path`, building its tree in `path`.d (removed after): busybox (static, from the host's
/// busybox-static) and its applets, the init script, the modules InitramfsModules lists, with
/// the kernel's modules.dep. False with one line when a file is missing or cpio failed.
[[nodiscard]] bool WriteGuestInitramfs(const GuestRun& run, const std::string& path,
                                       std::string* err);

/// virtiofsd's command line for `source` at `socket` (read-only where the guest mounts it so;
/// virtiofsd itself shares read-write). Sandbox chroot: the namespace sandbox cannot
/// pivot_root into "/". `cache` is virtiofsd's cache mode: "none" for the work share, whose
/// files the host reads while the guest writes them; "auto" for the host's root, read-only and
/// unchanged during a run, so that the guest reads it through its page cache: with "none" every
/// read is one direct request, and a module read whole by finit_module (6.1's xfs.ko) asked the
/// guest's virtiofs for a buffer its size, which failed with a warning and the mount that had
/// asked for xfs hung (7 December 2026).
std::vector<std::string> VirtiofsdArgv(const std::string& source, const std::string& socket,
                                       const std::string& cache = "none");

/// QEMU's command line: the kernel and initramfs, the accelerator and clock (KVM; TCG on the
/// instruction clock, one thread; TCG multi-threaded), `run`'s vCPUs and memory (shared memfd,
/// which vhost-user needs), the two shares, no network, no display, no monitor, the serial console
/// into `console_path`, and no reboot, so that a panic ends QEMU (panic=-1).
std::vector<std::string> QemuArgv(const GuestRun& run, const std::string& initramfs,
                                  const std::string& host_socket, const std::string& work_socket,
                                  const std::string& console_path);

}  // namespace elevbench
