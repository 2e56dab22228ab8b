#pragma once
// The vi-save probe in the layout of seed 003 (lkml 2005; docs/legacy-suites.md §8):
//
//   cfq 13,19,23,19,23,15,14,16,14 = 17.3 avg
//
// one line per configuration: its label, every save's seconds comma-separated, and their mean.
// The seed read whole seconds off `time`; today's saves may take milliseconds, so the number
// of decimals follows the data (VisaveDecimals): as few as keep the smallest save's value at
// least 5 units of the last digit (the seed's 7 s at 1 s steps prints as it did, a 0.0123 s
// save prints "0.012"). The mean gets one decimal more. Values and mean are truncated, not
// rounded, as the seed's "14.8 avg" of 134/9 = 14.89 shows; the JSON keeps every save exact.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "scenarios/visave/visave_records.h"

namespace elevbench {

/// Decimals for a line of saves: ceil(log10(5 / smallest positive value)) clamped to [0, 6];
/// 3 when no value is positive. {13, 7, 23} → 0, {0.37, 1.2} → 2, {0.0123} → 3.
int VisaveDecimals(const std::vector<double>& seconds);

/// `value` truncated (not rounded) to `decimals` ("%.*f" of the truncated value); values within
/// 1e-9 below a step count as the step, so 12.6 (12.59999...) stays "12.6".
std::string TruncatedDecimal(double value, int decimals);

/// "<label> v1,v2,... = mean avg" without newline, from the row's saves and the mean its suite
/// took of them (AggregateVisaveRows); "<label> (no saves)" for none.
std::string VisaveLine(const std::string& label, const VisaveRow& row);

/// The whole report: the environment header, a line saying what was saved how often beside
/// which writer, then the rows' lines separated by blank lines as in the seed, then the
/// writer's throughput per configuration.
std::string RenderVisaveText(const nlohmann::json& context, const nlohmann::json& parameters,
                             const std::vector<VisaveRow>& rows);

/// The suite's renderer (SuiteRenderer): format "lkml" only. Rows without a label take
/// doc.labels' entry, else print their identifier. err when the records are not visave's.
[[nodiscard]] bool RenderVisaveReport(const ResultsDocument& doc, const std::string& format,
                                      std::string* text, std::string* err);

}  // namespace elevbench
