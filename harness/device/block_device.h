#pragma once
// Block devices as the scheduler layer sees them: which request queues serve a path, what a
// device looks like (model, size, queue settings, mounts, stack), and a snapshot of its queue.
//
// The device to benchmark must be resolved from what the user points at, never guessed: the
// Phoronix suite reports the scheduler of the root disk by stripping digits from the root
// mount, which names the wrong disk on partitions, NVMe and stacked devices. Here a path goes
// path -> st_dev -> /sys/dev/block/MAJ:MIN -> whole disk -> slaves of dm/md, and every step
// is read from sysfs under an injectable root so fake trees can test it.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/device/sysfs.h"

namespace elevbench {

/// Where the system files live. Tests point `root` at a fake tree.
struct SystemPaths {
  /// Prefix of "sys/..." and "proc/sys/..."; "/" is the live system.
  std::string root = "/";
  /// The mount table to read; empty means "<root>proc/self/mountinfo".
  std::string mountinfo;

  /// The mountinfo path actually used.
  std::string MountinfoPath() const;
};

/// One mount of a device or of one of its partitions.
struct MountInfo {
  std::string device;      ///< kernel name of the mounted block device ("vda", "vda1").
  std::string mountpoint;  ///< unescaped (mountinfo writes a space as \040).
  std::string fstype;      ///< "ext4", "xfs", "fuse.elevbench-disk", ...
};

/// A snapshot of one block device (a whole disk, not a partition).
struct BlockDeviceInfo {
  std::string name;                  ///< kernel name: "vda", "nvme0n1", "loop3", "dm-0".
  std::string devno;                 ///< "MAJ:MIN".
  std::string model;                 ///< device/model, empty when the driver has none (virtio).
  uint64_t size_bytes = 0;           ///< the "size" attribute (512-byte sectors) times 512.
  uint32_t logical_block_bytes = 0;  ///< queue/logical_block_size; 0 when unreadable.
  bool rotational = false;        ///< queue/rotational; bfq and the block layer treat it specially.
  std::string current_scheduler;  ///< empty for bio-based devices (dm, md) without elevator.
  std::vector<std::string> available_schedulers;  ///< in the kernel's order.
  std::optional<int64_t> nr_requests;             ///< queue/nr_requests; empty when unreadable.
  std::optional<int64_t> read_ahead_kb;           ///< queue/read_ahead_kb.
  std::optional<int64_t> max_sectors_kb;          ///< queue/max_sectors_kb: the largest request.
  bool is_loop = false;                           ///< a loop device ("loopN").
  std::string loop_backing_file;                  ///< empty unless an attached loop device.
  std::vector<MountInfo> mounts;                  ///< mounts of the disk and of its partitions.
  std::vector<std::string> holders;               ///< devices stacked on this one (dm-0 on loop0).
  std::vector<std::string> slaves;  ///< devices this one is stacked on (loop0 under dm-0).
};

/// One device of a stack as reported by DescribeStack.
struct StackNode {
  std::string name;       ///< kernel name.
  std::string devno;      ///< "MAJ:MIN".
  std::string role;       ///< "partition", "dm", "md", "loop", "disk".
  int depth = 0;          ///< 0 for the device the path is on; slaves are one deeper.
  std::string scheduler;  ///< the bracketed scheduler; empty when it has none.
  std::string detail;     ///< dm name, loop backing file, or the parent disk of a partition.
};

/// Resolves the request queues that serve `path`: the disks whose queue/scheduler decides how
/// I/O to the path is ordered. A block device node uses st_rdev, any other file st_dev (with a
/// mountinfo fallback for filesystems such as btrfs that report an anonymous st_dev).
/// Partitions map to their disk; dm/md devices recurse to their slaves; loop devices count as
/// themselves. `disks` gets kernel names, without duplicates, in discovery order.
[[nodiscard]] bool ResolveQueueDevices(const std::string& path, const SystemPaths& paths,
                                       std::vector<std::string>* disks, std::string* err);

/// ResolveQueueDevices from a device number, skipping stat(): how fake trees are tested.
[[nodiscard]] bool ResolveQueueDevicesForDevno(unsigned major, unsigned minor,
                                               const SystemPaths& paths,
                                               std::vector<std::string>* disks, std::string* err);

/// The whole stack under `path`, depth-first, for reports and for telling the user why a
/// scheduler was set on a disk other than the one named.
[[nodiscard]] bool DescribeStack(const std::string& path, const SystemPaths& paths,
                                 std::vector<StackNode>* nodes, std::string* err);

/// DescribeStack from a device number (fake trees).
[[nodiscard]] bool DescribeStackForDevno(unsigned major, unsigned minor, const SystemPaths& paths,
                                         std::vector<StackNode>* nodes, std::string* err);

/// Whether the device major:minor keeps its data on the whole disk `disk` (a kernel name): it is
/// the disk, one of its partitions, or a device stacked on either (dm, md, a partition of those)
/// -- any device DescribeStackForDevno walks through on its way down. Writes to such a device
/// are I/O of `disk`. err (one line) when the device is not in sysfs.
[[nodiscard]] bool DevnoIsOnDisk(unsigned major, unsigned minor, const std::string& disk,
                                 const SystemPaths& paths, bool* on, std::string* err);

/// DevnoIsOnDisk for an existing `path`: a block device node by its own number, any other file
/// by its filesystem's device (as ResolveQueueDevices finds it). A path on a filesystem without
/// a block device (tmpfs, procfs, NFS) is on no disk: *on false, true returned. A loop device's
/// backing file is not followed. err (one line) when the path or its device cannot be read.
[[nodiscard]] bool PathIsOnDisk(const std::string& path, const std::string& disk,
                                const SystemPaths& paths, bool* on, std::string* err);

/// One line such as "dm-0 (dm vg-data) -> loop0 [none] (/tmp/a.img), loop1 [bfq]".
std::string FormatStack(const std::vector<StackNode>& nodes);

/// Reads one whole disk by kernel name. Fails if /sys/block/<name> does not exist.
[[nodiscard]] bool ReadBlockDevice(const std::string& name, const SystemPaths& paths,
                                   BlockDeviceInfo* info, std::string* err);

/// Every disk in /sys/block, sorted by name. ram* is skipped (never a benchmark target) and so
/// are unattached loop devices (they have no size and no backing file); zram is listed.
[[nodiscard]] bool ListBlockDevices(const SystemPaths& paths, std::vector<BlockDeviceInfo>* out,
                                    std::string* err);

/// The device as a JSON object; unknown numbers are null, sizes carry their unit in the key.
nlohmann::json ToJson(const BlockDeviceInfo& info);

/// Reads every readable regular file in /sys/block/<disk>/queue/ and queue/iosched/ into
/// `values`, keyed "queue/<name>" and "queue/iosched/<name>". Write-only or unreadable files
/// are skipped silently: the snapshot documents a run, it is not a restore list.
[[nodiscard]] bool SnapshotQueue(const Sysfs& sysfs, const std::string& disk,
                                 std::map<std::string, std::string>* values, std::string* err);

/// The schedulers `--schedulers` may name here: none, each of mq-deadline, kyber and bfq that
/// some block device lists or whose module is in `modules_dir` (kernel/block/<module>.ko*: a
/// scheduler built as a module is listed only once loaded, and selecting it loads it), then any
/// other that some block device lists. A kernel built without bfq (CONFIG_IOSCHED_BFQ unset)
/// thus refuses `--schedulers bfq` up front rather than failing every bfq cell. When no device
/// lists any scheduler (no /sys/block to read), all four: nothing can be ruled out.
std::vector<std::string> OfferedSchedulers(const SystemPaths& paths,
                                           const std::string& modules_dir);

/// OfferedSchedulers of the live system, its modules in /lib/modules/<uname -r>, or in a --kernels
/// guest where ELEVBENCH_GUEST_MODULES says (the kernel cache's folder, harness/guest/guest_boot.cc).
std::vector<std::string> OfferedSchedulers();

/// A --device name checked (#45): true for a whole disk of <root>sys/block ("sdb"); else one line
/// in *err, "no such disk" for a name that names nothing, "not a whole disk" for a partition
/// ("sdb1", named by a disk's <part>/partition), both pointing to `elevbench devices`. `given`
/// is the name as the user wrote it ("/dev/sdb"), for the message.
[[nodiscard]] bool CheckWholeDiskName(const std::string& given, const std::string& name,
                                      const SystemPaths& paths, std::string* err);

/// The device number of a whole disk, from /sys/block/<disk>/dev; `disk` is a kernel name
/// ("loop9") or its /dev path. The tracers filter their events by it. err is one line.
[[nodiscard]] bool ReadDiskNumbers(const Sysfs& sysfs, const std::string& disk, uint32_t* major,
                                   uint32_t* minor, std::string* err);

}  // namespace elevbench
