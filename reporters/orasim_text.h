#pragma once
// The OraSim stand-in's report in the layout of Nick Piggin's post (seed 000, 25 Mar 2003):
//
//   OraSim
//   DL - 132, 144
//
// one row per configuration label with one number per run, "bigger is better". The title line
// says that the numbers come from a stand-in, so they are never read as OraSim's.

#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "scenarios/orasim/orasim_records.h"

namespace elevbench {

/// The title line: OraSim, and what stands in for it.
inline constexpr char kOrasimHeading[] =
    "OraSim (stand-in: OLTP-like fio job, I/O operations per second, bigger is better)";

/// One row without newline: "<label> - 132, 144" (each run's score "%.0f", as the seed).
std::string RenderOrasimRow(const std::string& label, const std::vector<double>& scores);

/// The whole report: the environment header of `context`, the heading, "(means of N
/// repetitions; ...)" when a run averages several, then one row per configuration.
std::string RenderOrasimText(const nlohmann::json& context, const std::vector<OrasimRow>& rows);

/// The suite's renderer (SuiteRenderer): format "nick" only. Rows without a label take
/// doc.labels' entry of their identifier. err when the records are not the stand-in's.
[[nodiscard]] bool RenderOrasimReport(const ResultsDocument& doc, const std::string& format,
                                      std::string* text, std::string* err);

}  // namespace elevbench
