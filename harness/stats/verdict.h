#pragma once
// The verdict block: the answer a report gives first. For every headline row of a results
// document (harness/stats/metric_table.h, grouped over the configurations) it names the best
// configuration, how far ahead it is of each other one, whether the Mann–Whitney U test backs
// that, and, when the cells were traced, the request tracer's account of why (the dispatch runs
// and seeks of the best and the runner-up). Plain records; reporters/verdict_text.h renders
// them, last in every text format and first in Markdown and HTML (docs/reports.md, "Verdict").

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"
#include "harness/stats/metric_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {

/// What counts as a difference. The defaults are `compare`'s (kDefaultAlpha,
/// kDefaultThresholdPct), so the verdict and compare agree on the same two samples.
struct VerdictSettings {
  double alpha = kDefaultAlpha;                 ///< p < alpha is significant
  double threshold_pct = kDefaultThresholdPct;  ///< a ratio within 1 + this/100 is no difference
  /// Values each side needs for the U test: with 4 against 4 completely separated samples give
  /// p = 0.029, the fewest that can pass 0.05 on both sides alike.
  size_t min_values_tested = 4;
  /// Names every configuration by its identifier ("6.18.44-ky") even in a document with labels,
  /// as the tables beside the verdict do where they print identifiers (tiobench's and contest's
  /// text layouts, md and html); else by its label when the document has labels ("KY").
  bool name_by_identifier = false;
};

/// How the best configuration compares with another one.
enum class VerdictKind {
  kBetter,  ///< ratio beyond the threshold and the U test says so (p < alpha)
  /// A side has too few values for the test: whatever the ratio, nothing is claimed (never
  /// "no difference" without a test that could have found one).
  kUntested,
  kWithinThreshold,  ///< the U test says so (p < alpha), but the ratio is within the threshold
  /// Tested (enough values a side) and not significant (p >= alpha), or, tested or not, the
  /// same values on both sides (`identical`): there is no difference to claim.
  kNoDifference,
  kNotMeasured,  ///< the other configuration has no value (DNF or failed every time)
};

/// A configuration of one headline row.
struct VerdictConfiguration {
  std::string name;        ///< its short label when the document has labels, else identifier
  std::string identifier;  ///< "6.18.44-bfq-ll0"
  size_t n = 0;            ///< values (repetitions with a number)
  uint32_t dnf = 0;        ///< repetitions that did not finish
  uint32_t failed = 0;     ///< repetitions without a number for another reason
  double mean = 0;         ///< the row's mean (harmonic for rates); meaningful when n > 0
};

/// The best configuration against one other.
struct VerdictVersus {
  VerdictConfiguration other;
  VerdictKind kind = VerdictKind::kNotMeasured;
  /// How many times better the best is: best/other where higher is better, other/best where
  /// lower is better, so always >= 1 (+infinity against a mean of 0). Meaningful when other.n
  /// > 0.
  double ratio = 1;
  bool tested = false;     ///< both sides had min_values_tested values: p_value is the U test's
  double p_value = 1;      ///< two-sided
  bool identical = false;  ///< both sides have the same values (in any order): kNoDifference
};

/// The request tracer's account of the best and the runner-up in one row: of the direction
/// with more requests in their cells, the means over their cells of the mean dispatch run and
/// of the seek share.
struct VerdictEvidence {
  bool present = false;   ///< both configurations have traced cells with such requests
  std::string direction;  ///< "read" or "write"
  std::string phase;      ///< the cells' phase the numbers are of ("seq_read"); "" the whole cell
  std::string runner_up;  ///< its name
  double best_dispatch_run = 0;
  double runner_up_dispatch_run = 0;
  double best_seek_share = 0;  ///< 0..1
  double runner_up_seek_share = 0;
};

/// One headline row: a section × row key × metric over every configuration.
struct VerdictLine {
  std::string suite;  ///< the row's suite (a part's, in a composite document)
  std::string section;
  std::string row;  ///< "" when the section has one row
  /// With several kernels (`run --kernels`: context.kernels): the rows the line compares,
  /// "6.1.0-50-cloud" (the schedulers under that kernel) or "DL across kernels" (one
  /// configuration under every kernel); empty otherwise, every configuration in one line.
  std::string group;
  MetricInfo metric;
  /// Some configuration has a value and the metric has a better direction: `best` and
  /// `others` are filled. Otherwise `configurations` lists them all with their means (a
  /// metric that only describes, or one nobody measured).
  bool has_best = false;
  VerdictConfiguration best;
  std::vector<VerdictVersus> others;  ///< in table order
  std::vector<VerdictConfiguration> configurations;
  VerdictEvidence evidence;
};

/// The whole block.
struct VerdictBlock {
  std::string suite;  ///< the document's
  VerdictSettings settings;
  std::vector<VerdictLine> lines;  ///< headline rows in table order
  /// What the document's suite says a reader must know before trusting a ranking (the
  /// document's parameters.verdict_cautions, one line each: a replay's writer replayed at a
  /// pace the scheduler under test would have changed). Printed after the lines as "Caution:".
  std::vector<std::string> cautions;
};

/// Repetitions that did not finish ("dnf" measurements), per (section, row, metric) and
/// configuration identifier: built once from a document's measurements, so that each row's count
/// is a lookup (the verdict lines and the protection report count them the same way).
using DnfCounts =
    std::map<std::pair<std::tuple<std::string, std::string, std::string>, std::string>, uint32_t>;

/// Counts every "dnf" measurement by its row and configuration.
DnfCounts DnfCountsOf(const std::vector<Measurement>& measurements);

/// `row`'s DNF count, at most its not_measured repetitions (a DNF is one of them).
uint32_t DnfCountOf(const DnfCounts& counts, const MetricRow& row);

/// How `best` compares with `other` under the verdict's rules: their ratio in `direction`
/// (always >= 1 when best is ahead), the U test when each side has settings.min_values_tested
/// values, kNoDifference for the same values or p >= alpha, kWithinThreshold inside the
/// threshold, kNotMeasured when other has no value. The verdict lines and the protection
/// report (protection.h) judge every pair this way, so they never disagree.
VerdictVersus CompareWithBest(const VerdictConfiguration& best,
                              const std::vector<double>& best_values,
                              const VerdictConfiguration& other,
                              const std::vector<double>& other_values, Direction direction,
                              const VerdictSettings& settings);

/// The kernels of `rows` of a document of `run --kernels` (MetricRow::kernel, which each
/// record's "kernel" field gives: no label is read for it), in order of first appearance; empty
/// when fewer than two, so a run of one kernel, a host run and an old file without the field
/// read as one kernel.
std::vector<std::string> KernelsOfRows(const std::vector<MetricRow>& rows);

/// A row's configuration as the kernels share it, which names its line across kernels: its
/// configuration label (MetricRow::configuration_label, each record's "configuration_label"
/// field: "DL" of "6.1.0-50-cloud-DL"), or, in a file written before the field, its whole
/// label (else identifier). No label is parsed for it.
std::string ConfigurationAcrossKernels(const MetricRow& row);

/// The verdict of `doc` from its measurements (its suite's measurer made them, the trace
/// measurements included or not), with the request traces' evidence when cells were traced.
/// With several kernels (KernelsOfRows), each headline row gives one line per kernel (its
/// schedulers against each other) and one per configuration (its kernels against each other),
/// as the 2003 threads asked both "which elevator?" and "which kernel?".
VerdictBlock ComputeVerdict(const ResultsDocument& doc,
                            const std::vector<Measurement>& measurements,
                            const VerdictSettings& settings);

}  // namespace elevbench
