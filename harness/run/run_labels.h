#pragma once
// How a run names its configurations: the tiobench/contest-style identifier
// ("6.18.44-bfq-ll0", the seeds' `<kernel>-<code>`) and the nickbench/probe-style short label
// ("BFQ-LL0", or the user's @LABEL), one of each per configuration, in the order given.

#include <map>
#include <string>
#include <vector>

#include "harness/device/scheduler_config.h"
#include "harness/machine/io_controls.h"

namespace elevbench {

/// The short label of a configuration: its code in capitals ("DL", "BFQ-LL0"), or the user's
/// "@LABEL" as written (`bfq:low_latency=0@AS` → "AS").
std::string TableLabel(const SchedulerConfig& config);

/// The label of a run that does not switch: the active scheduler found in a queue snapshot
/// (the first ".../queue/scheduler" key), or "CURRENT" when the snapshot has none.
std::string CurrentSchedulerLabel(const std::map<std::string, std::string>& queue_snapshot);

/// The identifiers and labels of a run.
struct RunNames {
  std::vector<std::string> identifiers;
  std::vector<std::string> labels;
  /// `--kernels` (NameKernelConfigurations): each label without its kernel's ("DL" of
  /// "6.1.0-50-cloud-DL"), the configuration's name across kernels, written into every cell
  /// and record as its "configuration_label"; empty in any other run.
  std::vector<std::string> configuration_labels{};
};

/// Names for `configs`: `<prefix>-<code>` and TableLabel each, where prefix is `identifier`
/// when given, else the short kernel version of `kernel` ("6.18.44"). Without configurations
/// (a run on the current scheduler) one name: `identifier` or the whole `kernel`, and
/// `identifier` or the current scheduler's label.
RunNames NameConfigurations(const std::vector<SchedulerConfig>& configs, const std::string& kernel,
                            const std::string& identifier, const std::string& current_label);

/// Names for `configs` on the kernel row `prefix` (`--kernels`, docs/kernels.md): identifiers
/// `<prefix>-<code>` and labels `<prefix>-<TableLabel>` ("6.1.0-50-cloud-DL"), so the rows of
/// several kernels stay apart in one document, and configuration labels TableLabel ("DL"), the
/// same on every kernel. Without configurations one name, `prefix`, and no configuration label
/// (the run's one row is its kernel's).
RunNames NameKernelConfigurations(const std::vector<SchedulerConfig>& configs,
                                  const std::string& prefix);

/// A plan's configurations crossed with `--controls` (docs/controls.md).
struct ControlledConfigurations {
  std::vector<SchedulerConfig> configs;  ///< each scheduler once per control (empty stays empty)
  RunNames names;                        ///< ControlledIdentifier and ControlledLabel of each
  std::vector<size_t> control_of;        ///< the index in `controls` of each configuration
};

/// Crosses `configs` (named `names`, one name each, or one name for a run on the current
/// scheduler) with `controls`, scheduler-major: DL, DL+idle, BFQ, BFQ+idle. The names of a
/// `none` control stay the scheduler's own. Configuration labels, where `names` has them, are
/// crossed as the labels are.
ControlledConfigurations CrossWithControls(const std::vector<SchedulerConfig>& configs,
                                           const RunNames& names,
                                           const std::vector<IoControl>& controls);

/// The names a guest of `run --kernels` gives its rows on the kernel row `prefix`:
/// NameKernelConfigurations, crossed with `controls` (CrossWithControls) when any of them is not
/// `none`, as the guest's run crosses them. The host names a failed guest's rows so, identifiers
/// and configuration labels alike ("61-dl-idle", "DL+idle").
RunNames NameKernelRows(const std::vector<SchedulerConfig>& configs,
                        const std::vector<IoControl>& controls, const std::string& prefix);

}  // namespace elevbench
