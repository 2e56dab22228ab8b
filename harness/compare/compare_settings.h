#pragma once
// How `elevbench compare` compares and gates (docs/compare.md): its settings and the words of
// --metrics, --between and --allow that fill them, and the gate's rules and outcomes. The
// comparison itself is compare.h's; the gate's application compare_gate.cc's.

#include <string>
#include <vector>

#include "harness/stats/statistics.h"

namespace elevbench {

/// The test named in every report header.
inline constexpr const char* kCompareTestName =
    "Mann-Whitney U (two-sided, exact for n<=20 without ties)";

/// Which metrics are compared.
enum class MetricSelection {
  kHeadline,  ///< MetricInfo.headline only (the default: what a verdict is about)
  kAll,       ///< every metric the suite measures
  kNamed,     ///< the metrics named in CompareSettings::metric_names
};

/// A rule of the gate (docs/compare.md, "The gate"): each makes `compare` exit non-zero.
enum class GateRule {
  kRegression,    ///< a tested regression; never allowed (raise --threshold instead)
  kFailed,        ///< a row with more repetitions failed or DNF in the new results than the base
  kInconclusive,  ///< an untested change beyond the threshold in the metric's bad direction
  kMissing,       ///< a row of the base that the new results do not have
  kParameters,    ///< a suite parameter that differs between the two files
};

/// What the gate concludes; the CLI maps it to the exit code (0, 1, 3).
enum class GateOutcome {
  kPass,       ///< no rule broken (or every broken one allowed)
  kRegressed,  ///< a regression, or a row that failed/DNF in the new results only
  kUndecided,  ///< could not judge: inconclusive changes, rows missing, parameters differ
};

/// One broken rule: a row, or a parameter.
struct GateFinding {
  GateRule rule = GateRule::kRegression;
  std::string what;  ///< "seq_read threads=1 6.18.44-dl rate_mb_s -10.14%", "size_mb"
};

/// How to compare. The defaults are the CLI's.
struct CompareSettings {
  double alpha = kDefaultAlpha;  ///< significance level of the U test: p < alpha is significant
  double threshold_pct = kDefaultThresholdPct;  ///< a change must exceed this (in %) to count
  /// Let the threshold alone decide, without the test: for runs of one repetition, where no
  /// test is possible. The p-values are still computed and printed where they can be.
  bool no_significance = false;
  MetricSelection metrics = MetricSelection::kHeadline;
  std::vector<std::string> metric_names;  ///< for kNamed: MetricInfo.name values
  /// `--between A,B`: compare configuration A of the base document with configuration B of
  /// the new one (the same document for a comparison inside one file). Each names an
  /// identifier (exactly), a label (case-insensitively) or a scheduler string, tried in that
  /// order. Both empty: match the configurations of two documents (ConfigurationPair).
  std::string between_base;
  std::string between_new;
  /// `--allow NAME,…`: gate rules that do not fail the gate (never kRegression).
  std::vector<GateRule> allowed;
};

/// Parses `--metrics headline|all|name,name` into `settings`. err for an empty list item.
[[nodiscard]] bool ParseMetricSelection(const std::string& text, CompareSettings* settings,
                                        std::string* err);

/// Parses `--between A,B` into `settings`. err unless there are exactly two non-empty names.
[[nodiscard]] bool ParseBetween(const std::string& text, CompareSettings* settings,
                                std::string* err);

/// Parses `--allow failed,inconclusive,missing,parameters` into `settings.allowed`. err for an
/// unknown name or "regression" (which cannot be allowed).
[[nodiscard]] bool ParseAllow(const std::string& text, CompareSettings* settings, std::string* err);

}  // namespace elevbench
