// /proc/self/cgroup's lines ("4:blkio:/a/b", cgroup v2's "0::/a"): which cgroup a process is in,
// per hierarchy. Read by --machine (machine_cgroups), --controls (io_controls) and the harness's
// own placement (self_placement), each with its own purpose, one parser.
#pragma once

#include <string>
#include <string_view>

namespace elevbench {

/// The path in /proc/self/cgroup's text of the hierarchy holding `controller` ("4:memory:/x"
/// -> "/x"; a v1 named hierarchy's "name=systemd" is a controller here); "" asks for cgroup v2's
/// line ("0::/x"). False when no line names it or its path does not start with '/'.
bool CgroupPathOf(std::string_view proc_self_cgroup, const std::string& controller,
                  std::string* path);

}  // namespace elevbench
