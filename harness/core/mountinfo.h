// /proc/self/mountinfo's lines (proc(5)): the one parser of the mount table, for the block
// devices' mounts (block_device), a FUSE mount's connection (fuse_connection), the file system
// holding a path (system_info) and the cgroup mounts a placement moves in (self_placement).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace elevbench {

/// One mount: "36 35 98:0 /root /mnt rw,noatime master:1 - ext3 /dev/root rw,errors=continue".
/// Path fields are unescaped (mountinfo writes a space as \040).
struct MountinfoEntry {
  std::string devno;                       ///< "98:0": the mounted file system's st_dev
  std::string root;                        ///< the mount's root inside its file system
  std::string mount_point;                 ///< where it is mounted
  std::string fstype;                      ///< "ext3", "cgroup2", "fuse.elevbench"
  std::string source;                      ///< "/dev/root"
  std::vector<std::string> super_options;  ///< "rw", "errors=continue" (v1 cgroups: controllers)
};

/// Every well-formed line of `text` (a mount table's text), in order; others are skipped.
std::vector<MountinfoEntry> ParseMountinfo(std::string_view text);

}  // namespace elevbench
