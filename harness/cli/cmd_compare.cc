// `elevbench compare`: the verdict of NEW against BASE (or of two configurations of one file),
// as a text table, JSON or JUnit XML, with an exit code a CI job can gate on.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/compare/compare.h"
#include "harness/results/results_document.h"
#include "reporters/compare_json.h"
#include "reporters/compare_junit.h"
#include "reporters/compare_text.h"
#include "scenarios/suites.h"

namespace elevbench {

SubcommandRunner AddCompareSubcommand(CLI::App* cmd, const std::string&) {
  auto options = std::make_shared<CompareCommandOptions>();
  cmd->add_option("base", options->base_path, "The base results file (BASE.json)")->required();
  cmd->add_option("new", options->new_path,
                  "The new results file; without it, --between compares inside the base file");
  cmd->add_option("--between", options->between,
                  "Compare configuration A (base) with B (new) inside one file: an identifier, "
                  "a label (any case) or a scheduler string, e.g. dl,bfq-ll0");
  cmd->add_option("--metrics", options->metrics,
                  "headline (default), all, or a list of metric names (rate_mb_s,cpu_pct)");
  cmd->add_option("--alpha", options->alpha, "Significance level of the U test (default 0.05)")
      ->check(CLI::Range(1e-9, 0.5));
  cmd->add_option("--threshold", options->threshold_pct,
                  "A regression must change the mean by more than this many percent (default 5)")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_flag("--no-significance", options->no_significance,
                "The threshold alone decides (for runs of one repetition, where no test is "
                "possible)");
  cmd->add_option("--format", options->format, "text (default), json or junit (JUnit XML)")
      ->check(CLI::IsMember({"text", "json", "junit"}));
  cmd->add_option("--allow", options->allow,
                  "Gate rules that do not fail the gate: failed, inconclusive, missing, "
                  "parameters (comma-separated; a regression always fails)");
  return [options] { return CompareCommand(*options); };
}

int CompareCommand(const CompareCommandOptions& options) {
  CompareSettings settings;
  settings.alpha = options.alpha;
  settings.threshold_pct = options.threshold_pct;
  settings.no_significance = options.no_significance;
  std::string err;
  if (!ParseMetricSelection(options.metrics, &settings, &err) ||
      (!options.between.empty() && !ParseBetween(options.between, &settings, &err)) ||
      (!options.allow.empty() && !ParseAllow(options.allow, &settings, &err))) {
    PrintError(err);
    return kExitUsage;
  }
  const bool one_file = options.new_path.empty();
  if (one_file && options.between.empty()) {
    PrintError("compare needs two results files, or one with --between A,B");
    return kExitUsage;
  }

  ResultsDocument base, next;
  if (!LoadResultsFile(options.base_path, &base, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  if (!one_file && !LoadResultsFile(options.new_path, &next, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  Comparison comparison;
  if (!CompareDocuments(base, one_file ? base : next, MeasurerOf(base.suite), settings, &comparison,
                        &err)) {
    PrintError(err);
    return kExitUsage;
  }
  comparison.base_name = options.base_path;
  comparison.new_name = one_file ? options.base_path : options.new_path;

  if (options.format == "json") {
    std::cout << CompareToJson(comparison).dump(2) << "\n";
  } else if (options.format == "junit") {
    std::cout << RenderCompareJunit(comparison);
  } else {
    std::cout << RenderCompareText(comparison);
  }
  if (!base.complete) PrintNote(options.base_path + " is from an unfinished run");
  if (!one_file && !next.complete) PrintNote(options.new_path + " is from an unfinished run");
  std::cout.flush();
  const GateOutcome outcome = comparison.Outcome();
  if (outcome == GateOutcome::kPass) return kExitOk;
  PrintError(GateSummary(comparison));  // the cause, on one line
  return outcome == GateOutcome::kRegressed ? kExitFailure : kExitUndecided;
}

}  // namespace elevbench
