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
// (/sys/kernel/debug/block/<disk>/hctx0/tags, "depth=") can.

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
