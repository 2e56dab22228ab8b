#pragma once
// Scheduler configurations as values: which elevator to select and which of its tunables to set.
//
// A run compares configurations, not just schedulers ("bfq" and "bfq:low_latency=0" behave very
// differently), so each configuration is parsed once, validated, and given a short code for
// table identifiers in the style of the 2003 lkml posts: "<kernel>-<code>", e.g. "6.18.44-dl",
// "6.18.44-bfq-ll0".

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elevbench {

/// One scheduler plus tunables, e.g. "mq-deadline:read_expire=250:fifo_batch=8@dl250".
struct SchedulerConfig {
  std::string scheduler;  ///< kernel name: "none", "mq-deadline", "kyber", "bfq", ...
  /// queue/iosched/<name> = value, applied in order after selecting the scheduler.
  std::vector<std::pair<std::string, std::string>> tunables;
  std::string code_override;  ///< from "@code"; replaces ShortCode() when non-empty.

  /// Field-wise equality (tests and de-duplication).
  bool operator==(const SchedulerConfig&) const = default;
};

/// Parses a comma-separated list of configurations. Item syntax:
///   <scheduler>[:<tunable>=<value>]...[@<code>]
/// Names may use only [a-z0-9_-], codes [A-Za-z0-9_-]; values [A-Za-z0-9_.+-]. Rejects empty items,
/// repeated tunables within an item, tunables on "none" (it has no iosched directory), and two
/// items with the same ShortCode (they would share a table row). "all" is not special here:
/// expand it with ExpandAll() once the device's schedulers are known.
[[nodiscard]] bool ParseSchedulerList(std::string_view list, std::vector<SchedulerConfig>* out,
                                      std::string* err);

/// Refuses, before anything is created, a configuration the kernel would refuse at its first
/// cell: a scheduler that is not among `kernel_schedulers` (the union of every block device's
/// list on this machine; the check is skipped when it is empty), a tunable that the scheduler
/// does not have, or a value the kernel would refuse or silently clamp (so the row's label would
/// not say what ran). The tunables of none, mq-deadline, kyber and bfq, all whole numbers, are
/// those of Linux 6.x's queue/iosched/ (block/mq-deadline.c, kyber-iosched.c, bfq-iosched.c);
/// another scheduler's tunables are only checked when it is switched to. err lists the valid
/// names or the value's range.
[[nodiscard]] bool CheckSchedulersExist(const std::vector<SchedulerConfig>& configs,
                                        const std::vector<std::string>& kernel_schedulers,
                                        std::string* err);

/// One plain configuration per available scheduler, in the kernel's order.
std::vector<SchedulerConfig> ExpandAll(const std::vector<std::string>& available);

/// The table code: none -> "none", mq-deadline -> "dl", kyber -> "ky", bfq -> "bfq", others
/// keep their name; each tunable appends "-<initials of its words><value>" (low_latency=0 ->
/// "-ll0", read_expire=250 -> "-re250"). code_override wins when set.
std::string ShortCode(const SchedulerConfig& config);

/// The configuration as written by the user, without the code: "bfq:low_latency=0".
std::string DisplayName(const SchedulerConfig& config);

/// Parses queue attribute settings such as "read_ahead_kb=128,nr_requests=64" (attributes of
/// queue/, applied to every configuration). Same name rules; rejects "scheduler" (that is the
/// scheduler list's job), empty items and repeats. An empty string gives no attributes.
[[nodiscard]] bool ParseQueueAttrs(std::string_view list,
                                   std::vector<std::pair<std::string, std::string>>* out,
                                   std::string* err);

/// Refuses, before anything is created, a queue attribute the kernel would refuse at its first
/// write: a name that is not one of Linux 6.x's writable queue/ files (block/blk-sysfs.c:
/// add_random, io_poll, io_poll_delay, io_timeout, iostats, max_sectors_kb, nomerges,
/// nr_requests, read_ahead_kb, rotational, rq_affinity, stable_writes, wbt_lat_usec,
/// discard_max_bytes), or a value that is not a whole number in the file's range (0 or 1 for a
/// switch, 0 to 2 for nomerges and rq_affinity, -1 or more for wbt_lat_usec and io_poll_delay,
/// else 0 or more; nr_requests and max_sectors_kb at least 1). err names the attribute and lists
/// the valid names or the range.
[[nodiscard]] bool CheckQueueAttrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                                   std::string* err);

}  // namespace elevbench
