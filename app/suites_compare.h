#pragma once
// `elevbench compare`: the files loaded and compared with the measurer of the base file's suite
// (suites.h), and what compare prints of the comparison. Nothing here prints.

#include <string>

#include "harness/compare/compare.h"
#include "harness/results/results_document.h"
#include "harness/stats/statistics.h"

namespace elevbench {

/// Options of `elevbench compare`.
struct CompareCommandOptions {
  std::string base_path;             ///< BASE.json
  std::string new_path;              ///< NEW.json; empty: compare inside BASE.json with --between
  std::string between;               ///< "--between A,B"
  std::string metrics = "headline";  ///< "--metrics headline|all|name,name"
  double alpha = kDefaultAlpha;
  double threshold_pct = kDefaultThresholdPct;  ///< "--threshold"
  bool no_significance = false;
  /// "--alpha" was given: refused beside --no-significance, which skips the test it sets.
  bool alpha_given = false;
  std::string format = "text";  ///< text, json, junit
  std::string allow;            ///< "--allow failed,inconclusive,missing,parameters"
};

/// The files `compare` judged and its verdict.
struct ComparedFiles {
  ResultsDocument base;
  ResultsDocument next;  ///< empty when BASE.json is compared inside itself (--between)
  Comparison comparison;
};

/// Parses the settings of `options`, loads BASE.json (and NEW.json) and compares them with the
/// measurer of the base file's suite, the files' names set. False with a one-line err for a
/// usage error: --alpha with --no-significance, bad settings, one file without --between, an
/// unreadable or mismatched file.
[[nodiscard]] bool CompareResultsFiles(const CompareCommandOptions& options, ComparedFiles* out,
                                       std::string* err);

/// What `compare` prints of `comparison` as `format`: "json" (its JSON, a newline after it),
/// "junit" (JUnit XML) or else the text table.
std::string CompareReportText(const Comparison& comparison, const std::string& format);

}  // namespace elevbench
