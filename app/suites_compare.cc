#include "app/suites_compare.h"

#include "app/suites.h"
#include "reporters/compare_json.h"
#include "reporters/compare_junit.h"
#include "reporters/compare_text.h"

namespace elevbench {

bool CompareResultsFiles(const CompareCommandOptions& options, ComparedFiles* out,
                         std::string* err) {
  if (options.alpha_given && options.no_significance) {  // #45, fourth pass: was ignored
    *err = "--alpha is the U test's level, --no-significance skips the test: give one of them";
    return false;
  }
  CompareSettings settings;
  settings.alpha = options.alpha;
  settings.threshold_pct = options.threshold_pct;
  settings.no_significance = options.no_significance;
  if (!ParseMetricSelection(options.metrics, &settings, err) ||
      (!options.between.empty() && !ParseBetween(options.between, &settings, err)) ||
      (!options.allow.empty() && !ParseAllow(options.allow, &settings, err))) {
    return false;
  }
  const bool one_file = options.new_path.empty();
  if (one_file && options.between.empty()) {
    *err = "compare needs two results files, or one with --between A,B";
    return false;
  }
  if (!LoadResultsFile(options.base_path, &out->base, err) ||
      (!one_file && !LoadResultsFile(options.new_path, &out->next, err)) ||
      !CompareDocuments(out->base, one_file ? out->base : out->next, MeasurerOf(out->base.suite),
                        settings, &out->comparison, err)) {
    return false;
  }
  out->comparison.base_name = options.base_path;
  out->comparison.new_name = one_file ? options.base_path : options.new_path;
  return true;
}

std::string CompareReportText(const Comparison& comparison, const std::string& format) {
  if (format == "json") return CompareToJson(comparison).dump(2) + "\n";
  return format == "junit" ? RenderCompareJunit(comparison) : RenderCompareText(comparison);
}

}  // namespace elevbench
