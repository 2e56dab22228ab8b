#pragma once
// `elevbench disk`: a FUSE filesystem that exposes one image file with the
// timing of an emulated disk, so that a loop device on it (losetup
// --direct-io=on) gives the kernel's real I/O schedulers seek costs of a
// 2003-era disk. See docs/emulated-disk.md.

#include <string>

#include "harness/disk/disk_model.h"

namespace elevbench {

/// What to serve and where. The backing file should live on tmpfs (e.g.
/// /dev/shm) so that the host's page cache and real disk cannot distort the
/// model; stats.json reports whether it does.
struct DiskDaemonOptions {
  /// Existing regular file; its size is the image size and never changes.
  std::string backing_path;
  /// Existing empty directory to mount on.
  std::string mountpoint;
  /// Timing model; must pass ValidateDiskProfile.
  DiskProfile profile;
  /// Per-request trace file (see DiskTrace); empty = no trace.
  std::string trace_path;
  /// Busy-wait this long before each completion deadline instead of
  /// sleeping (see SleepUntilNs): larger = more accurate and more CPU.
  int spin_us = 150;
  /// SCHED_FIFO priority of the thread that serves requests, so that a busy
  /// host (compilers, fio itself) cannot make completions late; 0 = normal
  /// scheduling. Needs CAP_SYS_NICE; without it the daemon runs normally and
  /// stats.json says "realtime": false.
  int rt_priority = 10;
  /// false = detach with fuse_daemonize() after mounting (the calling
  /// process's parent side exits, as with any FUSE daemon).
  bool foreground = true;
};

/// Mounts the filesystem at options.mountpoint and serves it until it is
/// unmounted (fusermount3 -u / umount) or the process gets SIGTERM, SIGINT or
/// SIGHUP, in which case it unmounts itself. Files:
/// - `disk.img`: the backing file, read/write, fixed size, always direct_io
///   (no FUSE page cache; O_DIRECT opens work), each read/write charged by
///   the model;
/// - `stats.json`: read-only live counters (DiskStatsToJson), a fresh
///   snapshot per open.
/// queue_depth == 1 runs a single-threaded FUSE loop (strict arrival order);
/// queue_depth > 1 runs a multithreaded loop feeding an NCQ disk thread.
/// The trace is flushed and closed before returning. Returns 0 on a clean
/// exit; 1 with `*err` set when setup fails or the FUSE loop fails.
int RunDiskDaemon(const DiskDaemonOptions& options, std::string* err);

}  // namespace elevbench
