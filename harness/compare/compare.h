#pragma once
// `elevbench compare`: the verdict of a base results file against a new one (or of two
// configurations inside one file), row by row. Rows are the MetricRows of both documents
// (harness/stats/metric_table.h), matched on suite × section × row × configuration × metric;
// each matched row gets the change of its mean, a Mann–Whitney U p-value (harness/stats) and a
// verdict that knows which way the metric is better. Plain records; rendering is in
// reporters/compare_*.{h,cc}. docs/compare.md explains the rules for users.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/compare/compare_settings.h"
#include "harness/results/results_document.h"
#include "harness/stats/metric_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {

/// A configuration as the rows name it.
struct ConfigurationRef {
  std::string identifier;  ///< "6.18.44-bfq-ll0"
  std::string label;       ///< "BFQ-LL0", "AS"; may be empty
  std::string scheduler;   ///< "bfq:low_latency=0"; "" when the run did not switch
};

/// How a base configuration was paired with a new one.
enum class MatchRule {
  kIdentifier,  ///< equal identifiers
  kLabel,       ///< identifiers differ (another kernel), labels equal ignoring case
  kScheduler,   ///< identifiers and labels differ or are empty, scheduler strings equal
  kBetween,     ///< named by --between
};

/// One pair of configurations whose rows are compared.
struct ConfigurationPair {
  ConfigurationRef base;
  ConfigurationRef next;
  MatchRule rule = MatchRule::kIdentifier;
};

/// Whether a row exists on both sides.
enum class Presence { kBoth, kOnlyBase, kOnlyNew };

/// What the U test could say about a row.
enum class Significance {
  kSignificant,     ///< p < alpha
  kNotSignificant,  ///< p >= alpha, with enough values for p < alpha to have been possible
  /// Both sides have two or more values, but so few that even completely separated samples
  /// give p >= alpha (2 vs 2, 2 vs 3, 3 vs 3 …): the test cannot speak.
  kTooFewValues,
  kSingleValue,  ///< a side has one value: no test is possible ("n=1")
  kNotTested,    ///< the row is not comparable (one side missing or without values)
};

/// The decision about a row.
enum class Verdict {
  kImprovement,  ///< significant (or --no-significance) and beyond the threshold, good way
  kRegression,   ///< significant (or --no-significance) and beyond the threshold, bad way
  kChanged,      ///< as the two above, for a metric without a better direction (kNeither)
  /// Compared, but no test could have found a change (n=1 or too few values, without
  /// --no-significance): never "unchanged".
  kInconclusive,
  kUnchanged,      ///< tested and not significant, or significant within the threshold
  kNotComparable,  ///< only on one side, or a side without a single value (failed, DNF)
};

/// One compared row.
struct ComparisonRow {
  std::string suite;
  std::string section;
  std::string row;
  MetricInfo metric;
  ConfigurationRef base_config;  ///< empty for a row only in the new document
  ConfigurationRef new_config;   ///< empty for a row only in the base document
  Presence presence = Presence::kBoth;
  std::vector<double> base_values;  ///< the "ok" values, in repetition order
  std::vector<double> new_values;
  SampleSummary base;              ///< of base_values (harmonic mean for rates)
  SampleSummary next;              ///< of new_values
  uint32_t base_not_measured = 0;  ///< repetitions without a number (DNF, failed)
  uint32_t new_not_measured = 0;
  bool base_incomplete = false;  ///< fewer values than the run's repetitions
  bool new_incomplete = false;
  /// (new mean − base mean) / |base mean| × 100; +/-infinity when the base mean is 0 and the
  /// new one is not. Meaningful only when has_change.
  double change_pct = 0;
  bool has_change = false;   ///< both sides have a value
  double p_value = 1;        ///< two-sided; meaningful only when has_p_value
  bool has_p_value = false;  ///< both sides have at least two values
  bool exact = false;        ///< p from the exact distribution
  Significance significance = Significance::kNotTested;
  Verdict verdict = Verdict::kNotComparable;
  /// The gate rule this row breaks and that is not allowed; empty when it breaks none.
  std::optional<GateRule> gate;
  /// Why the row is not comparable or what limits it, for the report: "only in base", "no
  /// values in new (2 failed/DNF)", "base incomplete: 3 of 5"; "" when nothing to say.
  std::string note;
};

/// A whole comparison: the header facts and the rows.
struct Comparison {
  std::string test = kCompareTestName;
  double alpha = kDefaultAlpha;
  double threshold_pct = kDefaultThresholdPct;
  bool no_significance = false;
  std::string suite;
  std::string base_name;  ///< what the reports call the base (a file path); set by the caller
  std::string new_name;   ///< the same for the new side
  std::vector<ConfigurationPair> pairs;  ///< base order
  /// Configurations with no partner (their rows are "only in base" / "only in new").
  std::vector<ConfigurationRef> unpaired_base;
  std::vector<ConfigurationRef> unpaired_new;
  /// In the base's row order; a row only in the new document follows the base's rows of its
  /// section, row and metric.
  std::vector<ComparisonRow> rows;
  /// Facts a reader should know that do not fit a row: "parameters differ: size_mb 64 vs 128".
  std::vector<std::string> notes;
  std::vector<GateRule> allowed;  ///< the rules --allow relaxed
  /// Every broken rule that is not allowed, rows in row order, then parameters.
  std::vector<GateFinding> findings;

  /// How many rows got `verdict`, a row that fails the gate as failed included (the reports'
  /// footers and the JSON's counts count that one as failed only: reporters/compare_text.h).
  size_t CountOf(Verdict verdict) const;
  /// At least one regression.
  bool HasRegression() const { return CountOf(Verdict::kRegression) > 0; }
  /// The gate's conclusion from `findings`.
  GateOutcome Outcome() const;
};

/// The gate in one line: "gate: pass", or "gate: regressed: 1 regression (seq_read threads=1
/// 6.18.44-dl rate_mb_s -10.14%); 4 parameters differ (size_mb, …); --allow parameters to
/// accept". The text report ends with it; the CLI prints it on stderr when the gate fails.
std::string GateSummary(const Comparison& comparison);

/// Fills `findings` and each row's `gate` from the rows' verdicts and notes, as `settings`
/// allow; `differing_parameters` are the suite parameters that differ (GateRule::kParameters).
void ApplyGate(const CompareSettings& settings,
               const std::vector<std::string>& differing_parameters, Comparison* comparison);

/// "regression", "failed", "inconclusive", "missing", "parameters": the --allow names.
const char* GateRuleName(GateRule rule);
/// "pass", "regressed", "undecided".
const char* GateOutcomeName(GateOutcome outcome);

/// Compares the rows of `base_rows` and `new_rows` (MetricRowsOf of two documents, or of one).
/// Configurations are paired as `settings.between_*` say, or else: equal identifiers; then,
/// among the rest, equal labels (case-insensitive, non-empty, unique on both sides); then equal
/// scheduler strings (unique on both sides; "" pairs with "" — two runs without switching).
/// err (one line) when --between names no or more than one configuration, a --metrics name
/// is measured by neither side, or nothing at all could be compared.
[[nodiscard]] bool CompareMetricRows(const std::vector<MetricRow>& base_rows,
                                     const std::vector<MetricRow>& new_rows,
                                     const CompareSettings& settings, Comparison* out,
                                     std::string* err);

/// Compares two results documents (may be the same object for --between): their suites must
/// be equal, and `measure` is that suite's measurer (the table of suites has it; null for a
/// suite this build does not know). Adds a note for each top-level parameter that differs. err
/// (one line) as CompareMetricRows, or for different suites and documents whose records cannot
/// be read.
[[nodiscard]] bool CompareDocuments(const ResultsDocument& base, const ResultsDocument& next,
                                    SuiteMeasurer measure, const CompareSettings& settings,
                                    Comparison* out, std::string* err);

/// "improvement", "regression", "changed", "unchanged", "not comparable".
const char* VerdictName(Verdict verdict);
/// "significant", "not significant", "too few values", "n=1", "not tested".
const char* SignificanceName(Significance significance);
/// "identifier", "label", "scheduler", "between".
const char* MatchRuleName(MatchRule rule);
/// "both", "only in base", "only in new".
const char* PresenceName(Presence presence);

}  // namespace elevbench
