#pragma once
// Driver tags: how many requests the block layer lets out of the I/O scheduler to the driver at
// once. A loop device has 128 (the loop module's hw_queue_depth), so every request leaves the
// scheduler the moment it arrives and none, mq-deadline, kyber and bfq cannot differ; a 2003 IDE
// disk took one command at a time and the elevator held the rest.
//
// The kernel (6.18) offers no direct knob. Writing queue/nr_requests while the scheduler is
// "none" resizes the driver tags (values below 4 are clamped to 4, values above the tag set's
// depth fail with EINVAL); with a scheduler selected it resizes the scheduler's own pool instead,
// and selecting a scheduler afterwards keeps the resized driver tags. After a switch back to none,
// nr_requests shows the tag set's depth (128) again while the tags stay at 4, and a write of the
// value nr_requests already shows is ignored: growing the tags back needs none, a different value,
// then the wanted one. nr_requests therefore cannot tell the tags; debugfs
// (/sys/kernel/debug/block/<disk>/hctx0/tags, "depth=") can — on a kernel built with
// CONFIG_BLK_DEBUG_FS. Without it (a 6.18 seen on 4 December 2026: the disk's debugfs directory
// exists, empty), the tags are still resized, but no file shows them: the journal then records
// the tag set's own depth (/sys/block/<disk>/mq/0/nr_tags, what the device had when it was
// made), and what shows them is the loop device's in-flight count
// (/sys/block/<disk>/inflight), which cannot pass the tags (docs/emulated-disk.md).

#include <string>
#include <string_view>

#include "harness/device/sysfs.h"

namespace elevbench {

/// The kernel's minimum: nr_requests below this is raised to it.
inline constexpr int kMinDriverTags = 4;

/// "/sys/kernel/debug/block/<disk>/hctx0/tags". Only the first hardware queue is read: a loop
/// device has one.
std::string DriverTagsDebugfsPath(const std::string& disk);

/// The depth of "bitmap_tags" in the text of a debugfs tags file (the first "depth=N" after the
/// "bitmap_tags:" line, or the first "depth=N" at all when that line is missing).
[[nodiscard]] bool ParseTagsDepth(std::string_view text, int* depth, std::string* err);

/// Reads the driver tag depth of `disk` from debugfs. Under a fake root the file is read from the
/// fake tree. On the live system, if debugfs is not mounted at /sys/kernel/debug, a child process
/// mounts it in a private mount namespace and reads the file there: the mount is never visible to
/// anyone else and dies with the child, so nothing needs journaling and a SIGKILL cannot leave it
/// behind. Fails when debugfs cannot be read (not root, no CONFIG_DEBUG_FS, lockdown).
[[nodiscard]] bool ReadDriverTags(const Sysfs& sysfs, const std::string& disk, int* depth,
                                  std::string* err);

/// As above, and when it fails, `*no_blk_mq_debugfs` says whether it failed because this kernel
/// has no blk-mq debugfs files (debugfs mounted, the disk in /sys/block, but no hctx0/tags: a
/// kernel without CONFIG_BLK_DEBUG_FS), where the depth cannot be known at all, rather than for
/// another reason (not root, lockdown, a disk that is gone).
[[nodiscard]] bool ReadDriverTags(const Sysfs& sysfs, const std::string& disk, int* depth,
                                  bool* no_blk_mq_debugfs, std::string* err);

/// The depth of the disk's tag set, /sys/block/<disk>/mq/0/nr_tags: what its driver gave it,
/// which resizing through nr_requests does not change. What the journal records for the driver
/// tags when ReadDriverTags cannot know them (no blk-mq debugfs).
[[nodiscard]] bool ReadTagSetDepth(const Sysfs& sysfs, const std::string& disk, int* depth,
                                   std::string* err);

/// Resizes the driver tags of `disk` to `depth` (>= kMinDriverTags) and verifies the result,
/// whatever the scheduler: it switches to none if needed, writes nr_requests (first another
/// value if nr_requests already shows `depth`, since the kernel ignores a write of the current
/// value), reads the depth back from debugfs (from nr_requests when debugfs cannot be read), and
/// switches back to the scheduler it found. Journals nothing: callers journal first
/// (DeviceControl::SetDriverTags), and the journal's undo of a driver_tags entry calls this.
/// On failure the scheduler may be left at none.
[[nodiscard]] bool ResizeDriverTags(const Sysfs& sysfs, const std::string& disk, int depth,
                                    std::string* err);

}  // namespace elevbench
