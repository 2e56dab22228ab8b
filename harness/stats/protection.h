#pragma once
// The protection report of `run --controls` (issue #46 §2, docs/controls.md): for each scheduler
// × control, side by side, the protected program's time (p50, p99 over the repetitions), the
// load's throughput at the device, and what the control bought and cost against the same
// scheduler's row without a control, each judged by the verdict's rules (CompareWithBest: the
// U test, the threshold); then one line naming the best protection and, among the rows the U
// test cannot tell from it, the one whose load kept the most. Plain records;
// reporters/protection_text.h renders them.
//
// A section gets a table when its measurements carry two or more controls, a protected metric
// (a headline metric where lower is better, the protected program's time, or one marked
// protected_measure, nickbench's readers' rate) and a load_throughput metric.

#include <cstddef>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"
#include "harness/stats/verdict.h"

namespace elevbench {

/// A row's metric against its baseline's: the change of the means and whether it is real.
struct ProtectionChange {
  /// (row − baseline) / baseline × 100 of the means; meaningful when kind is not kNotMeasured.
  double change_pct = 0;
  /// As CompareWithBest judges the two (kBetter: significant beyond the threshold, in the
  /// direction change_pct says; kNotMeasured: one side has no value).
  VerdictKind kind = VerdictKind::kNotMeasured;
  bool tested = false;
  double p_value = 1;
};

/// One scheduler × control.
struct ProtectionRow {
  std::string name;        ///< its label when the document has labels ("DL+idle"), else identifier
  std::string identifier;  ///< "6.18.44-dl-idle"
  std::string control;     ///< "ionice:load=idle", "none"
  size_t n = 0;            ///< repetitions with a time
  uint32_t dnf = 0;        ///< repetitions that did not finish
  uint32_t failed = 0;     ///< repetitions without a time for another reason
  double mean = 0;         ///< of the protected metric; meaningful when n > 0
  double p50 = 0;          ///< linear-interpolated percentiles of its values
  double tail = 0;         ///< at the table's tail_percentile: the bad end
  size_t load_n = 0;       ///< repetitions with a load throughput
  double load_mean = 0;    ///< its harmonic mean (MeanKind of the metric)
  /// The same scheduler's row without a control (in the same kernel); false for that row and
  /// where the run had none.
  bool has_baseline = false;
  std::string baseline;         ///< its name
  ProtectionChange protection;  ///< the protected metric against the baseline's
  ProtectionChange cost;        ///< the load's throughput against the baseline's
};

/// One section's table (one probe, one program).
struct ProtectionTable {
  std::string suite;
  std::string section;
  std::string row;    ///< the section's row key; "" when one
  std::string group;  ///< the kernel (`run --kernels`), "" with one kernel
  MetricInfo protected_metric;
  /// The percentile of a row's `tail`: 99 for a time (lower is better), 1 for a rate (higher is
  /// better, nickbench's readers'), so that the column shows the bad end of each.
  int tail_percentile = 99;
  MetricInfo load_metric;
  std::vector<ProtectionRow> rows;  ///< in the document's configuration order
  /// Some row has a value: the best mean in the protected metric's direction is `best`;
  /// `least_cost` is, of the rows whose time the U test cannot tell from best's, the one whose load
  /// kept the most where that is more than best's by the verdict's rules (tested, beyond the
  /// threshold), else best itself; least_cost_vs_best compares its time with best's.
  bool has_best = false;
  std::string best;
  std::string least_cost;
  VerdictVersus least_cost_vs_best;
};

/// The protection tables of `doc` from its measurements; empty when the run had no controls.
std::vector<ProtectionTable> ComputeProtection(const ResultsDocument& doc,
                                               const std::vector<Measurement>& measurements,
                                               const VerdictSettings& settings);

/// The p-th percentile (0..100) of `values` by linear interpolation between closest ranks
/// (numpy's default); 0 for no values.
double PercentileOf(std::vector<double> values, double p);

}  // namespace elevbench
