#pragma once
// contest's report (docs/legacy-suites.md §2.4): per load a line "<load>:", the column
// header and one row per configuration, fields after the runs column TAB-separated:
//
//   io_load:
//   Kernel         [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio
//   2.5.65-mm4-dl       1\t149\t46.3\t121.0\t22.8\t2.16
//
// "contest" is contest's own printf("%-15s%6d\t%d\t%.1f\t%.1f\t%.1f\t%.2f\n") (Time with two
// decimals under 10 s, ContestTimeText); "nick" is the
// variant of Nick Piggin's posts (seed 000): a "Contest" title, the header "Kernel     [runs]"
// and rows whose label and runs fill 20 columns ("%-14s%6d"), the tail identical. Rows whose
// every run did not finish print "DNF" or "failed" after the runs column; notes ("* ...")
// after a load's block say which runs did not finish and when io_other ran without a load.

#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "scenarios/contest/contest_records.h"

namespace elevbench {

/// From this many seconds up Time is printed in whole seconds, as contest printed it ("%d": its
/// compiles took a minute or more); below, with two decimals ("1.08", "0.74"), so that a short
/// run's Ratio (from the unrounded means) agrees with the Times beside it (#45: "1" beside "1"
/// with Ratio 1.47).
inline constexpr double kContestWholeSeconds = 10;

/// Time in the seed's column: the mean rounded to whole seconds from kContestWholeSeconds up,
/// two decimals below ("149", "69", "9.50", "0.74").
std::string ContestTimeText(double seconds);

/// One row without newline in `format` ("contest" or "nick"). Time is ContestTimeText of the
/// mean; the Ratio column is "-" without a no_load.
std::string RenderContestRow(const std::string& format, const ContestRow& row);

/// The column header line without newline.
std::string ContestHeader(const std::string& format);

/// The note lines (each "* ...") of a load's rows, empty when every run finished with its load.
std::vector<std::string> ContestNotes(const std::vector<ContestRow>& rows_of_one_load);

/// The whole report from aggregated rows (AggregateContestRows order): the environment header
/// of `context`, then per load its block and notes.
std::string RenderContestText(const nlohmann::json& context, const std::vector<ContestRow>& rows,
                              const std::string& format);

/// The suite's renderer (SuiteRenderer): formats "contest" and "nick". err for another format
/// or records that are not contest's.
[[nodiscard]] bool RenderContestReport(const ResultsDocument& doc, const std::string& format,
                                       std::string* text, std::string* err);

}  // namespace elevbench
