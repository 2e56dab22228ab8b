#pragma once
// How many processes the kernel's OOM killer ended in this process's memory cgroup: the one way
// to tell a probe killed for want of memory (`--machine ram=`) from one killed by someone's
// SIGKILL. Cgroup v2: memory.events "oom_kill N"; v1: memory.oom_control "oom_kill N".

#include <cstdint>
#include <string>
#include <string_view>

namespace elevbench {

/// The N of the "oom_kill N" line of a memory.events or memory.oom_control text; false when
/// there is none.
bool ParseOomKillCount(std::string_view text, uint64_t* count);

/// The memory cgroup directory of this process from the text of /proc/self/cgroup, under
/// `cgroup_root` ("/sys/fs/cgroup"): v1's "N:memory:/p" → root/memory/p (or root/memory,memsw/p
/// style mounts are not looked for), v2's "0::/p" → root/p. Empty when neither line is there.
std::string MemoryCgroupDirFrom(std::string_view proc_self_cgroup, const std::string& cgroup_root);

/// The OOM-kill count of this process's memory cgroup (children inherit it, so it counts the
/// kills among them). False when it cannot be read (no memory controller, an old kernel).
[[nodiscard]] bool ReadOwnOomKillCount(uint64_t* count);

}  // namespace elevbench
