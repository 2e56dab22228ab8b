// `elevbench compare`: the verdict of NEW against BASE (or of two configurations of one file),
// as a text table, JSON or JUnit XML, with an exit code a CI job can gate on.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites_compare.h"
#include "harness/core/plain_range.h"

namespace elevbench {
namespace {

// Exit 0 when the gate passes, 1 on a regression or a row failed/DNF more often in the new results
// than in the base, 3 when it cannot judge, 2 for usage errors and unreadable or mismatched files
// (docs/compare.md).
int CompareCommand(const CompareCommandOptions& options) {
  ComparedFiles files;
  std::string err;
  if (!CompareResultsFiles(options, &files, &err)) return ErrorExit(err);
  const bool one_file = options.new_path.empty();
  const Comparison& comparison = files.comparison;
  std::cout << CompareReportText(comparison, options.format);
  if (!files.base.complete) PrintNote(options.base_path + " is from an unfinished run");
  if (!one_file && !files.next.complete) PrintNote(options.new_path + " is from an unfinished run");
  std::cout.flush();
  const GateOutcome outcome = comparison.Outcome();
  if (outcome == GateOutcome::kPass) return kExitOk;
  PrintError(GateSummary(comparison));  // the cause, on one line
  return outcome == GateOutcome::kRegressed ? kExitFailure : kExitUndecided;
}

}  // namespace

SubcommandRunner AddCompareSubcommand(CLI::App* cmd, const std::string&) {
  auto options = std::make_shared<CompareCommandOptions>();
  AddPlainOptions(
      cmd,
      {{"base", "FILE", "The base results file (BASE.json)", &options->base_path, true},
       {"new", "FILE", "The new results file; without it, --between compares inside the base file",
        &options->new_path},
       {"--between", "A,B",
        "Compare configuration A (base) with B (new) inside one file: as the rows name it, an "
        "identifier, a label or a code (any case: 6.18.44-dl, DL, dl), or a scheduler string, "
        "e.g. dl,bfq-ll0",
        &options->between},
       {"--metrics", "LIST",
        "headline (default), all, or a list of metric names (rate_mb_s,cpu_pct)",
        &options->metrics}});
  CLI::Option* alpha =
      cmd->add_option("--alpha", options->alpha,
                      "Significance level of the U test (default 0.05; not with --no-significance)")
          ->check(PlainRange(1e-9, 0.5));
  cmd->add_option("--threshold", options->threshold_pct,
                  "A regression must change the mean by more than this many percent (default 5)")
      ->check(PlainRange(0.0, 1e6, "%"));
  cmd->add_flag("--no-significance", options->no_significance,
                "The threshold alone decides (for runs of one repetition, where no test is "
                "possible)");
  cmd->add_option("--format", options->format, "text (default), json or junit (JUnit XML)")
      ->check(PlainWords({"text", "json", "junit"}));
  AddPlainOptions(cmd, {{"--allow", "LIST",
                         "Gate rules that do not fail the gate: failed, inconclusive, missing, "
                         "parameters (comma-separated; a regression always fails)",
                         &options->allow}});
  return [options, alpha] {
    options->alpha_given = alpha->count() > 0;
    return CompareCommand(*options);
  };
}

}  // namespace elevbench
